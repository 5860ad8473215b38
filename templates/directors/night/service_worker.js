// The club night's service worker (issue 36), served at /manage/sw.js by
// directors/night/app_views.py with Service-Worker-Allowed: / and registered for the whole
// site, so that it sees signing in and out as well as every club's night pages.
// Network first: a night page (GET, under /manage/<club>/night/) and the files it loads are
// kept when the server answers them, and shown from the copy only when the network fails.
// Nothing else is touched: every other request goes to the network as if there were no
// worker. A POST is never kept nor answered from a copy. An answer other than the page (no
// longer a director, signed out: a 404) drops that page's copy; signing in or out drops all.
"use strict";
var CACHE = "club-night-{{ version }}";
var NIGHT = /^\/manage\/[-\w]+\/night\//;
var FILES = {{ files|safe }};
var SIGNING = {{ signing|safe }};

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(forget(CACHE).then(function () { return self.clients.claim(); }));
});

// Every copy but `keep` (none: all of them).
function forget(keep) {
  return caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("club-night-") === 0 && name !== keep;
    }).map(function (name) { return caches.delete(name); }));
  });
}

function startsWithOne(path, prefixes) {
  return prefixes.some(function (prefix) { return path.indexOf(prefix) === 0; });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Another person may sign in next on this device: no copy of this one's pages stays.
    if (startsWithOne(url.pathname, SIGNING)) event.waitUntil(forget(null));
    return;
  }
  var page = NIGHT.test(url.pathname);
  if (!page && !startsWithOne(url.pathname, FILES)) return;
  event.respondWith(fetch(request).then(function (response) {
    var copy = response.clone();
    event.waitUntil(caches.open(CACHE).then(function (cache) {
      if (response.status === 200 && !response.redirected) return cache.put(request, copy);
      if (page) return cache.delete(request);
    }).catch(function () { /* a copy not kept is fetched again next time */ }));
    return response;
  }, function () {
    return caches.open(CACHE).then(function (cache) {
      return cache.match(request, { ignoreVary: true });
    }).then(function (kept) {
      if (kept) return kept;
      return new Response(
        "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
        "<title>{{ offline_title|force_escape|escapejs }}</title><p>{{ offline_text|force_escape|escapejs }}</p>",
        { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
      );
    });
  }));
});
