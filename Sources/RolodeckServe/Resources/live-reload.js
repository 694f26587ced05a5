(function () {
  var generation = ROLODECK_GENERATION, missing = ROLODECK_MISSING_PAGE;
  var here = location.pathname.replace(/\/$/, "/index.html");
  var overlay = null;
  function hide() { if (overlay) { overlay.remove(); overlay = null; } }
  function show(failure) {
    hide();
    overlay = document.createElement("div");
    overlay.setAttribute("role", "alert");
    overlay.id = "rolodeck-serve-failure";
    overlay.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;z-index:2147483647;"
      + "margin:0;padding:1em 1.5em;background:#fff4f4;color:#5c0000;border-top:4px solid #c00;"
      + "font:14px/1.5 ui-monospace,monospace;box-shadow:0 -4px 16px rgba(0,0,0,.25)";
    var heading = document.createElement("strong");
    heading.textContent = failure.summary;
    var list = document.createElement("pre");
    list.style.cssText = "margin:.5em 0 0;white-space:pre-wrap";
    list.textContent = failure.diagnostics.join("\n");
    overlay.append(heading, list);
    document.body.append(overlay);
  }
  var events = new EventSource(ROLODECK_EVENTS_PATH);
  events.addEventListener("hello", function (event) {
    if (JSON.parse(event.data).generation !== generation) location.reload();
  });
  // Every file of this site the page has loaded: its stylesheets, scripts and images,
  // and what they loaded in turn (fonts, search pieces), by path.
  function loaded() {
    var paths = {};
    function add(url) {
      var parsed = new URL(url, location.href);
      if (parsed.origin === location.origin) paths[parsed.pathname] = true;
    }
    document.querySelectorAll("link[href], script[src], img[src]").forEach(function (element) {
      add(element.getAttribute("href") || element.getAttribute("src"));
    });
    performance.getEntriesByType("resource").forEach(function (entry) { add(entry.name); });
    return paths;
  }
  events.addEventListener("reload", function (event) {
    var data = JSON.parse(event.data);
    hide();
    generation = data.generation;
    var uses = loaded();
    if (missing || data.paths === null || data.paths.some(function (path) {
      return path === here || uses[path];
    })) location.reload();
  });
  events.addEventListener("failure", function (event) { show(JSON.parse(event.data)); });
})();
