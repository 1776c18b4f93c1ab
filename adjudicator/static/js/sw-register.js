// Install the service worker once the page has loaded, so caching the reference for offline
// use never competes with the page itself for a slow connection. A saved situation (/s/<id>)
// opened before the worker controlled the page (a shared link, the first visit) was fetched
// without it: once the worker is ready, the page asks it to keep the situation for offline use.
(function () {
  'use strict';

  if ('serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('/sw.js').catch(() => {});
      if (/^\/s\/[A-Za-z0-9_-]+$/.test(location.pathname)) {
        navigator.serviceWorker.ready.then((registration) => {
          registration.active?.postMessage({keep: location.pathname});
        }).catch(() => {});
      }
    });
  }
})();
