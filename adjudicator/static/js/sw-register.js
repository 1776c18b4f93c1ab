// Install the service worker once the page has loaded, so caching the reference for offline
// use (a few hundred requests) never competes with the page itself for a slow connection and a
// slow phone. The builder's page does its work after its load (its modules, the rulings, the
// board): there the worker is installed once the builder is ready and the browser idle. A saved
// situation (/s/<id>) opened before the worker controlled the page (a shared link, the first
// visit) was fetched without it: once the worker is ready, the page asks it to keep the situation
// for offline use.
(function () {
  'use strict';

  /** On the builder, the worker waits until builder.js says it is ready and the browser idle
   * ('builder-ready'), or WAIT ms whatever happens (a builder whose data never came still installs
   * it). This script runs before the builder's module (deferred, earlier in the page): the event
   * cannot be missed. */
  const WAIT = 10000;
  const builderReady = document.getElementById('builder') ? new Promise((resolve) => {
    document.addEventListener('builder-ready', () => resolve(), {once: true});
    setTimeout(resolve, WAIT);
  }) : Promise.resolve();

  function register() {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
    if (/^\/s\/[A-Za-z0-9_-]+$/.test(location.pathname)) {
      navigator.serviceWorker.ready.then((registration) => {
        registration.active?.postMessage({keep: location.pathname});
      }).catch(() => {});
    }
  }

  if ('serviceWorker' in navigator) {
    window.addEventListener('load', () => { builderReady.then(register); });
  }
})();
