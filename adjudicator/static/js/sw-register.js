// Install the service worker once the page has loaded, so caching the reference for offline
// use never competes with the page itself for a slow connection.
(function () {
  'use strict';

  if ('serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      navigator.serviceWorker.register('/sw.js').catch(() => {});
    });
  }
})();
