// The jump bar lands on its section, on a list of any length, and shows where the reader is.
//
// A long list lays out only the sections near the screen (`content-visibility` in style.css);
// the others have a guessed height until they are drawn. A jump scrolls to where the guesses put
// the section, then the sections it passes take their real height. Chromium usually keeps the
// section in place while they do, but not always: now and then a jump on a 50,000-contact page
// stopped a hundred thousand pixels short. After a jump this script watches the section for a
// few frames and scrolls it back to the top of the screen (below the sticky jump bar, where the
// scroll padding puts it) until it stays there. It gives way as soon as the reader scrolls,
// types or touches the screen. Without JavaScript the links still jump, as before.
//
// On a page of a paged list the jump bar links to the other sections' pages and marks the page's
// own letter; on a phone the bar scrolls sideways, and this script scrolls it to that letter.
(function () {
  "use strict";

  // Frames the section must stay in place before the watch ends, and the most it lasts.
  const STILL_FRAMES = 10;
  const MAX_FRAMES = 240;
  // How far (in CSS pixels) the section may be from its place before it is put back.
  const TOLERANCE = 2;

  let watch = null;

  function scrollPadding() {
    return parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
  }

  function atEnd() {
    const root = document.scrollingElement || document.documentElement;
    return root.scrollTop >= root.scrollHeight - root.clientHeight - 1;
  }

  function stopWatching() {
    if (watch === null) { return; }
    cancelAnimationFrame(watch.frame);
    for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) {
      removeEventListener(type, stopWatching, true);
    }
    watch = null;
  }

  function check() {
    const current = watch;
    current.frames += 1;
    const section = current.section;
    if (!section.isConnected || section.getClientRects().length === 0) { stopWatching(); return; }
    const offset = section.getBoundingClientRect().top - scrollPadding();
    // Below its place at the end of the page is where a short last section belongs.
    if (Math.abs(offset) > TOLERANCE && !(offset > 0 && atEnd())) {
      section.scrollIntoView({ block: "start", behavior: "instant" });
      current.still = 0;
    } else {
      current.still += 1;
    }
    if (current.still >= STILL_FRAMES || current.frames >= MAX_FRAMES) { stopWatching(); return; }
    current.frame = requestAnimationFrame(check);
  }

  function land(id) {
    const section = id && document.getElementById(id);
    if (!section || !section.classList.contains("letter-section")) { return; }
    stopWatching();
    watch = { section: section, frames: 0, still: 0, frame: 0 };
    for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) {
      addEventListener(type, stopWatching, { capture: true, passive: true });
    }
    watch.frame = requestAnimationFrame(check);
  }

  function fragment(href) {
    const hash = href.indexOf("#");
    if (hash < 0) { return ""; }
    try { return decodeURIComponent(href.slice(hash + 1)); } catch (error) { return ""; }
  }

  // The browser jumps first; the watch starts on the frame after. A click on the letter already
  // in the address changes no hash, so clicks are followed, not only hash changes.
  document.addEventListener("click", function (event) {
    const link = event.target instanceof Element ? event.target.closest("nav.jump-bar a[href^='#']") : null;
    if (link && !event.defaultPrevented && event.button === 0) {
      // The click's own pointerdown came before; anything after it is the reader's.
      land(fragment(link.getAttribute("href")));
    }
  });
  addEventListener("popstate", function () { land(fragment(location.hash)); });
  if (location.hash) { land(fragment(location.hash)); }

  // The page's own letter in the middle of the bar, when the bar is too narrow for every letter.
  for (const current of document.querySelectorAll("nav.jump-bar a[aria-current='page']")) {
    const bar = current.closest("ul");
    if (!bar || bar.scrollWidth <= bar.clientWidth) { continue; }
    const letter = current.getBoundingClientRect();
    const box = bar.getBoundingClientRect();
    bar.scrollLeft += letter.left - box.left - (bar.clientWidth - letter.width) / 2;
  }
}());
