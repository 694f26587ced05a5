/* Rolodeck search: finds contacts in the browser, from the index the build writes under
 * search/. No dependencies, no build step, no network beyond this site's own files.
 *
 * The index comes in pieces, each a script that calls rolodeckSearchPiece(id, json): script
 * elements load from file:// as well as from any server, where fetch, modules and workers may
 * not. A query loads the root, then one piece per word, then the rows of the results it shows.
 * docs/search.md describes the format; the folding rules mirror
 * Sources/RolodeckKit/Search/SearchFolding.swift and are tested against the same cases. */
(function () {
  'use strict';

  var PAGE_SIZE = 20;

  // --- Folding: text to the keys the index is sorted by ---------------------------------------

  var REPLACEMENTS = {
    'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'þ': 'th', 'ı': 'i',
    'ħ': 'h', 'ŧ': 't', 'ŀ': 'l', 'ς': 'σ'
  };
  var HANGUL_INITIALS = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143,
    0x3145, 0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E];
  var HANGUL_VOWELS = [[0x314F], [0x3150], [0x3151], [0x3152], [0x3153], [0x3154], [0x3155],
    [0x3156], [0x3157], [0x3157, 0x314F], [0x3157, 0x3150], [0x3157, 0x3163], [0x315B], [0x315C],
    [0x315C, 0x3153], [0x315C, 0x3154], [0x315C, 0x3163], [0x3160], [0x3161], [0x3161, 0x3163],
    [0x3163]];
  var HANGUL_FINALS = [[0x3131], [0x3132], [0x3131, 0x3145], [0x3134], [0x3134, 0x3148],
    [0x3134, 0x314E], [0x3137], [0x3139], [0x3139, 0x3131], [0x3139, 0x3141], [0x3139, 0x3142],
    [0x3139, 0x3145], [0x3139, 0x314C], [0x3139, 0x314D], [0x3139, 0x314E], [0x3141], [0x3142],
    [0x3142, 0x3145], [0x3145], [0x3146], [0x3147], [0x3148], [0x314A], [0x314B], [0x314C],
    [0x314D], [0x314E]];
  var SPACE = /\p{White_Space}/u;
  var MARK = /\p{M}/u;
  var WORD = /[\p{L}\p{N}]/u;

  function units(codes) { return String.fromCharCode.apply(null, codes); }

  function hiragana(ch) {
    var c = ch.codePointAt(0);
    return (c >= 0x30A1 && c <= 0x30F6) || c === 0x30FD || c === 0x30FE ? String.fromCharCode(c - 0x60) : ch;
  }

  /* Words (split at white space) of parts (split at punctuation) of atoms, one per written
   * character: {s: folded, l: German or Scandinavian spelling or null, i: Hangul initial or null}. */
  function foldWords(text) {
    var words = [], parts = [], atoms = [];
    var base = null, voicing = '', umlaut = false;
    var hangul = '', hangulInitial = null, hangulVowel = false;

    function finishAtom() {
      if (hangul) {
        atoms.push({ s: hangul, l: null, i: hangulVowel ? hangulInitial : null });
        hangul = ''; hangulInitial = null; hangulVowel = false;
      }
      if (base === null) return;
      var text = hiragana(base);
      base = null;
      if (voicing) { text = (text + voicing).normalize('NFC'); voicing = ''; }
      var short = '', long = null;
      for (var ch of text.toLowerCase()) {
        if (ch === 'ø') { short += 'o'; long = 'oe'; }
        else if (REPLACEMENTS[ch]) short += REPLACEMENTS[ch];
        else short += ch;
      }
      if (umlaut) { long = short + 'e'; umlaut = false; }
      atoms.push({ s: short, l: long, i: null });
    }
    function finishPart() { finishAtom(); if (atoms.length) parts.push(atoms); atoms = []; }
    function finishWord() { finishPart(); if (parts.length) words.push(parts); parts = []; }

    for (var ch of text.normalize('NFKD')) {
      var c = ch.codePointAt(0);
      if (SPACE.test(ch)) { finishWord(); continue; }
      if (c >= 0x1100 && c <= 0x1112) {
        finishAtom();
        hangulInitial = units([HANGUL_INITIALS[c - 0x1100]]);
        hangul = hangulInitial;
        continue;
      }
      if ((c >= 0x1161 && c <= 0x1175) || (c >= 0x11A8 && c <= 0x11C2)) {
        var keys = c <= 0x1175 ? HANGUL_VOWELS[c - 0x1161] : HANGUL_FINALS[c - 0x11A8];
        if (!hangul) finishAtom();
        if (hangulInitial !== null && !hangulVowel && keys[0] >= 0x314F && keys[0] <= 0x3163) hangulVowel = true;
        hangul += units(keys);
        continue;
      }
      if (MARK.test(ch)) {
        if ((c === 0x3099 || c === 0x309A) && base !== null) voicing += ch;
        else if (c === 0x308 && base !== null && 'aouAOU'.indexOf(base) >= 0) umlaut = true;
        continue;
      }
      if (WORD.test(ch)) { finishAtom(); base = ch; continue; }
      finishPart();
    }
    finishWord();
    return words;
  }

  /* The keys a query is looked up by, one per word; a query of digits and phone punctuation
   * only ("+82 10-1234 5678") is one key of its digits. */
  function queryKeys(query) {
    if (/[0-9]/.test(query) && /^[0-9+\-()./ \t]*$/.test(query)) return [query.replace(/[^0-9]/g, '')];
    var keys = [];
    foldWords(query).forEach(function (parts) {
      var key = parts.map(function (atoms) {
        return atoms.map(function (a) { return a.l || a.s; }).join('');
      }).join('');
      if (key) keys.push(key);
    });
    return keys;
  }

  /* Every folded spelling of a text's words (and the initials of Hangul parts), for telling
   * which field of a result a query matched. */
  function foldedForms(text) {
    var forms = [];
    foldWords(text).forEach(function (parts) {
      var short = '', long = '';
      parts.forEach(function (atoms) {
        var initials = atoms.every(function (a) { return a.i; }) ? atoms.map(function (a) { return a.i; }).join('') : '';
        if (initials) forms.push(initials);
        atoms.forEach(function (a) { short += a.s; long += a.l || a.s; });
      });
      forms.push(short);
      if (long !== short) forms.push(long);
    });
    return forms;
  }

  /* Whether a phone number shows the digits of a query, allowing for a country code and
   * trunk 0 the query has and the number as written has not (or the other way round). */
  function phoneMatches(number, digits) {
    var written = number.replace(/[^0-9]/g, '').replace(/^0+/, '');
    for (var drop = 0; drop <= 4 && digits.length - drop >= 2; drop++) {
      if (written.indexOf(digits.slice(drop).replace(/^0+/, '')) >= 0) return true;
    }
    return false;
  }

  function minimumInside(key) { return /^[0-9]+$/.test(key) ? 3 : 2; }

  // --- Pieces ----------------------------------------------------------------------------------

  var DIGIT = new Int8Array(128).fill(-1);
  '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$'.split('').forEach(function (ch, i) {
    DIGIT[ch.charCodeAt(0)] = i;
  });

  /* Calls visit(contact) for every number of one encoded list (see SearchEntryEncoding.swift). */
  function decodeList(text, visit) {
    if (!text) return;
    var i = 0;
    function number() {
      var n = 0;
      for (;;) {
        var d = DIGIT[text.charCodeAt(i++)];
        if (d >= 32) n = n * 32 + d - 32; else return n * 32 + d;
      }
    }
    if (text.charCodeAt(0) === 42) {
      i = 1;
      var first = number(); number();
      for (var k = 0; i < text.length; i++, k += 6) {
        var bits = DIGIT[text.charCodeAt(i)];
        for (var b = 0; bits; b++, bits >>= 1) if (bits & 1) visit(first + k + b);
      }
      return;
    }
    var previous = -1;
    while (i < text.length) { previous += 1 + number(); visit(previous); }
  }

  /* A term or hot piece: keys in order and, parallel, their encoded lists. */
  function parseEntries(text) {
    var keys = [], lists = [], previous = '', i = 0;
    while (i < text.length) {
      var shared = 0;
      for (;;) {
        var d = DIGIT[text.charCodeAt(i++)];
        if (d >= 32) shared = shared * 32 + d - 32; else { shared = shared * 32 + d; break; }
      }
      var colon = text.indexOf(':', i), end = text.indexOf(';', colon);
      previous = previous.slice(0, shared) + text.slice(i, colon);
      keys.push(previous);
      lists.push(text.slice(colon + 1, end));
      i = end + 1;
    }
    return { keys: keys, lists: lists };
  }

  function lowerBound(sorted, key) {
    var low = 0, high = sorted.length;
    while (low < high) { var mid = (low + high) >> 1; if (sorted[mid] < key) low = mid + 1; else high = mid; }
    return low;
  }

  /* The piece a key belongs to: the last separator at or before it. */
  function pieceOf(separators, key) {
    var low = 0, high = separators.length;
    while (low < high) { var mid = (low + high) >> 1; if (key < separators[mid]) high = mid; else low = mid + 1; }
    return Math.max(0, low - 1);
  }

  /* The page names the root without a version, so that a change of the index leaves the pages
   * alone; the root is asked for afresh, past any cache, once per page, and names the version
   * every piece is asked for with, so a cache never mixes pieces of two builds. */
  function Index(indexURL) {
    this.base = indexURL.slice(0, indexURL.lastIndexOf('/') + 1);
    this.rootURL = indexURL + (indexURL.indexOf('?') < 0 ? '?' : '&') + 'loaded=' + Date.now();
    this.pending = {};
    this.loaded = [];
    this.root = this.piece('root');
  }

  Index.received = {};
  window.rolodeckSearchPiece = function (id, json) { Index.received[id] = json; };

  /* Loads a piece once, with a script element; resolves to its parsed JSON. `used`, when given,
   * collects the ids of the pieces one search needed. */
  Index.prototype.piece = function (id, used) {
    var self = this;
    if (used && used.indexOf(id) < 0) used.push(id);
    if (!this.pending[id]) {
      this.pending[id] = new Promise(function (resolve, reject) {
        var script = document.createElement('script');
        script.src = id === 'root' ? self.rootURL : self.base + id + '.js?v=' + self.version;
        script.async = true;
        script.onload = function () {
          var json = Index.received[id];
          delete Index.received[id];
          script.remove();
          if (json === undefined) { reject(new Error('search piece ' + id + ' did not load')); return; }
          self.loaded.push(id);
          resolve(JSON.parse(json));
        };
        script.onerror = function () { script.remove(); reject(new Error('search piece ' + id + ' is missing')); };
        document.head.appendChild(script);
      });
      if (id === 'root') {
        this.pending[id] = this.pending[id].then(function (root) {
          if (root.format !== 1) throw new Error('unknown search index format ' + root.format);
          self.version = root.version;
          self.rootData = root;
          return root;
        });
      }
    }
    return this.pending[id];
  };

  Index.prototype.entries = function (id, field, used) {
    this.parsed = this.parsed || {};
    if (!this.parsed[id]) this.parsed[id] = this.piece(id).then(function (data) { return parseEntries(data[field]); });
    if (used && used.indexOf(id) < 0) used.push(id);
    return this.parsed[id];
  };

  /* How one query word finds each contact: tier + 1 (1 name, 2 other field, 3 inside a word),
   * 0 for contacts it does not find. */
  Index.prototype.word = function (key, used) {
    var self = this;
    return this.piece('root', used).then(function (root) {
      var best = new Uint8Array(root.contacts);
      var tiers = key.length >= minimumInside(key) ? 3 : 2;
      function merge(lists) {
        lists.split(',').slice(0, tiers).forEach(function (list, tier) {
          decodeList(list, function (contact) {
            if (!best[contact] || best[contact] > tier + 1) best[contact] = tier + 1;
          });
        });
      }
      var hot = root.terms.some(function (s) { return s.length > key.length && s.lastIndexOf(key, 0) === 0; });
      if (hot) {
        return self.entries('h' + pieceOf(root.hot, key), 'prefixes', used).then(function (piece) {
          var at = lowerBound(piece.keys, key);
          if (piece.keys[at] === key) merge(piece.lists[at]);
          return best;
        });
      }
      return self.entries('t' + pieceOf(root.terms, key), 'terms', used).then(function (piece) {
        for (var at = lowerBound(piece.keys, key); at < piece.keys.length && piece.keys[at].lastIndexOf(key, 0) === 0; at++) {
          merge(piece.lists[at]);
        }
        return best;
      });
    });
  };

  /* Contact numbers that every word finds, best first: by the sum of the tiers, then in the
   * directory's order. */
  Index.prototype.search = function (keys, used) {
    var self = this;
    return Promise.all(keys.map(function (key) { return self.word(key, used); })).then(function (bests) {
      var buckets = [];
      var count = bests[0].length;
      outer: for (var contact = 0; contact < count; contact++) {
        var score = 0;
        for (var w = 0; w < bests.length; w++) {
          var b = bests[w][contact];
          if (!b) continue outer;
          score += b;
        }
        (buckets[score] = buckets[score] || []).push(contact);
      }
      return [].concat.apply([], buckets.filter(Boolean));
    });
  };

  /* The id of the row piece holding a contact (once the root is there). */
  Index.prototype.rowPiece = function (contact) {
    return this.rootData ? 'r' + Math.floor(contact / this.rootData.rowsPerPiece) : null;
  };

  Index.prototype.row = function (contact, used) {
    var self = this;
    return this.root.then(function (root) {
      var piece = Math.floor(contact / root.rowsPerPiece);
      return self.piece('r' + piece, used).then(function (data) { return data.rows[contact - piece * root.rowsPerPiece]; });
    });
  };

  // --- The search box --------------------------------------------------------------------------

  var form = document.querySelector('form[data-search-index]');
  var input = form && form.querySelector('input');
  var results = document.getElementById('search-results');
  var listbox = document.getElementById('search-listbox');
  var directory = document.getElementById('directory');
  if (!form || !input || !results || !listbox) return;
  var status = form.querySelector('[role="status"]');
  var more = results.querySelector('.search-more');
  var strings = form.dataset;
  var root = form.getAttribute('data-search-root') || '';
  var index = null;
  var current = { token: 0, ids: [], shown: 0, active: -1, keys: [] };
  var number = new Intl.NumberFormat(document.documentElement.lang || undefined);

  /* For tests and benchmarks: every piece loaded so far, in order, and what the last search did:
   * its query, count, the pieces it needed (`pieces`, and `firstResultPieces` up to its first
   * result) and milliseconds from the keystroke (`firstResultMs`, `ms` when its page is shown);
   * `fold` (set at the end) is the folding, which the browser tests hold to the Swift cases. */
  var stats = window.rolodeckSearch = { loaded: [], last: null };

  function indexReady() {
    if (!index) {
      index = new Index(form.getAttribute('data-search-index'));
      stats.loaded = index.loaded;
    }
    return index;
  }

  function setActive(position) {
    var options = listbox.children;
    if (current.active >= 0 && options[current.active]) options[current.active].setAttribute('aria-selected', 'false');
    current.active = position;
    if (position >= 0 && options[position]) {
      options[position].setAttribute('aria-selected', 'true');
      input.setAttribute('aria-activedescendant', options[position].id);
      options[position].scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  }

  function showDirectory() {
    results.hidden = true;
    if (directory) directory.hidden = false;
    listbox.textContent = '';
    if (more) more.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    setActive(-1);
    status.textContent = '';
  }

  /* Keeps ?q= in the address, so a search can be linked and survives a reload; a moment after
   * typing stops, because changing the address can take longer than the search itself. */
  var urlTimer = null;
  function updateURL(query) {
    clearTimeout(urlTimer);
    urlTimer = setTimeout(function () {
      try {
        var url = location.pathname + (query ? '?q=' + encodeURIComponent(query) : '') + location.hash;
        history.replaceState(history.state, '', url);
      } catch (e) { /* file:// pages may not change their address; the search still works */ }
    }, 300);
  }

  function matches(text, keys) {
    var forms = foldedForms(text);
    return keys.some(function (key) { return forms.some(function (f) { return f.indexOf(key) >= 0; }); });
  }

  /* The line under a result: the field that matched, unless the name or organization shown
   * above did; otherwise the first phone number or email, as the directory lists them. */
  function detail(row, keys) {
    var phones = row[4] || [], emails = row[5] || [], groups = row[6] || [];
    var digits = keys.length === 1 && /^[0-9]+$/.test(keys[0]) ? keys[0] : null;
    var candidates = [];
    if (row[7]) candidates.push([strings.labelNickname, row[7]]);
    if (row[8]) candidates.push([strings.labelReading, row[8]]);
    emails.forEach(function (e) { candidates.push([strings.labelEmail, e]); });
    phones.forEach(function (p) { candidates.push([strings.labelPhone, p, true]); });
    groups.forEach(function (g) { candidates.push([strings.labelGroup, g]); });
    if (!matches(row[1] + ' ' + (row[3] || ''), keys)) {
      for (var i = 0; i < candidates.length; i++) {
        var c = candidates[i];
        var hit = c[2] && digits ? phoneMatches(c[1], digits) : matches(c[1], keys);
        if (hit) return c;
      }
    }
    if (phones.length) return [strings.labelPhone, phones[0]];
    if (emails.length) return [strings.labelEmail, emails[0]];
    return null;
  }

  /* The first letter of a name, as the directory's avatars show it: a whole grapheme, so an
   * accent or a joined emoji stays with its letter. */
  var graphemes = window.Intl && Intl.Segmenter ? new Intl.Segmenter() : null;
  function monogram(name) {
    if (!name) return '';
    var first = graphemes ? graphemes.segment(name)[Symbol.iterator]().next().value.segment : Array.from(name)[0];
    return first.toUpperCase();
  }

  function option(row, position, keys) {
    var a = document.createElement('a');
    a.className = 'search-option';
    a.id = 'search-option-' + position;
    a.href = root + 'contacts/' + row[0] + '.html';
    a.tabIndex = -1;
    a.setAttribute('role', 'option');
    a.setAttribute('aria-selected', 'false');
    // The avatar the directory's rows have: the photo's thumbnail when the row has one (its
    // name is the row's tenth field, its path the one SitePhotos writes,
    // photos/<name>-96.webp), else the name's first letter.
    var avatar = document.createElement('span');
    avatar.className = 'avatar';
    avatar.setAttribute('aria-hidden', 'true');
    if (row[9]) {
      var img = document.createElement('img');
      img.src = root + 'photos/' + row[9] + '-96.webp';
      img.width = 48;
      img.height = 48;
      img.loading = 'lazy';
      img.alt = row[1];
      avatar.appendChild(img);
    } else {
      avatar.textContent = monogram(row[1]);
    }
    a.appendChild(avatar);
    var name = document.createElement('span');
    name.className = 'search-option-name';
    name.textContent = row[1];
    if (row[2]) name.lang = row[2];
    a.appendChild(name);
    if (row[3]) {
      var org = document.createElement('span');
      org.className = 'search-option-org';
      org.textContent = row[3];
      // Spaces between the parts, so the option's name reads as words, not one run.
      a.appendChild(document.createTextNode(' '));
      a.appendChild(org);
    }
    var d = detail(row, keys);
    if (d) {
      a.appendChild(document.createTextNode(' '));
      var line = document.createElement('span');
      line.className = 'search-option-detail';
      var label = document.createElement('span');
      label.className = 'search-option-label';
      label.textContent = d[0] + ': ';
      line.appendChild(label);
      line.appendChild(document.createTextNode(d[1]));
      a.appendChild(line);
    }
    return a;
  }

  /* Shows the next page of results, in order, each as soon as its row piece is there. */
  function showMore(token, started, used) {
    var start = current.shown, end = Math.min(current.ids.length, start + PAGE_SIZE);
    var rows = [];
    for (var i = start; i < end; i++) rows.push(index.row(current.ids[i], used));
    current.shown = end;
    if (more) more.hidden = true;
    var chain = Promise.resolve();
    rows.forEach(function (row, offset) {
      chain = chain.then(function () { return row; }).then(function (data) {
        if (token !== current.token) return;
        listbox.appendChild(option(data, start + offset, current.keys));
        if (stats.last && stats.last.token === token && stats.last.firstResultMs === null) {
          stats.last.firstResultMs = performance.now() - started;
          stats.last.firstResultPieces = used.slice(0, used.indexOf(index.rowPiece(current.ids[start])) + 1);
        }
      });
    });
    return chain.then(function () {
      if (token !== current.token) return;
      if (more) more.hidden = current.shown >= current.ids.length;
    });
  }

  function run(started) {
    var query = input.value;
    var token = ++current.token;
    updateURL(query.trim());
    var keys = queryKeys(query);
    if (!keys.length) {
      showDirectory();
      return Promise.resolve();
    }
    var search = indexReady();
    var used = [];
    stats.last = { token: token, query: query, count: null, ms: null, firstResultMs: null, firstResultPieces: null };
    return search.search(keys, used).then(function (ids) {
      if (token !== current.token) return;
      current.ids = ids;
      current.keys = keys;
      current.shown = 0;
      listbox.textContent = '';
      setActive(-1);
      results.hidden = false;
      if (directory) directory.hidden = true;
      input.setAttribute('aria-expanded', ids.length ? 'true' : 'false');
      status.textContent = ids.length === 0 ? strings.noResults
        : ids.length === 1 ? strings.resultOne : strings.resultsMany.replace('{count}', number.format(ids.length));
      stats.last.count = ids.length;
      if (!ids.length) stats.last.firstResultPieces = used.slice();
      return showMore(token, started, used).then(function () {
        if (token !== current.token) return;
        stats.last.ms = performance.now() - started;
        stats.last.pieces = used.slice();
      });
    }).catch(function (error) {
      if (token !== current.token) return;
      showDirectory();
      status.textContent = strings.unavailable;
      stats.last.error = String(error);
    });
  }

  input.addEventListener('input', function (event) { run(event.timeStamp || performance.now()); });
  input.addEventListener('focus', function () { indexReady(); });
  input.addEventListener('keydown', function (event) {
    // Keys that confirm or cancel an input method's composition (Japanese Enter) are its own.
    if (event.isComposing || event.keyCode === 229) return;
    var count = listbox.children.length;
    switch (event.key) {
      case 'ArrowDown':
        if (!count) return;
        setActive(current.active + 1 < count ? current.active + 1 : current.active);
        break;
      case 'ArrowUp':
        if (!count) return;
        setActive(current.active - 1);
        break;
      case 'Enter':
        if (count) listbox.children[current.active >= 0 ? current.active : 0].click();
        break;
      case 'Escape':
        if (!input.value && results.hidden) return;
        input.value = '';
        current.token++;
        updateURL('');
        showDirectory();
        break;
      default:
        return;
    }
    event.preventDefault();
  });
  form.addEventListener('submit', function (event) { event.preventDefault(); });
  if (more) {
    more.addEventListener('click', function () {
      var first = current.shown;
      showMore(current.token, performance.now(), []).then(function () {
        // Back to the box, on the first new result: the button may be gone now.
        input.focus();
        if (listbox.children[first]) setActive(first);
      });
    });
  }

  form.hidden = false;
  var linked = new URLSearchParams(location.search).get('q');
  if (linked) {
    input.value = linked;
    run(performance.now());
  }

  window.rolodeckSearch.fold = { words: foldWords, queryKeys: queryKeys };
})();
