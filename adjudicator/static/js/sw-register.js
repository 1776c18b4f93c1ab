// Install the service worker once the page has loaded, so caching the reference for offline
// use (a few hundred requests) never competes with the page itself for a slow connection and a
// slow phone. The builder's page does its work after its load (its modules, the rulings, the
// board): there the worker is installed once the builder is ready and the browser idle. A saved
// situation (/s/<id>) opened before the worker controlled the page (a shared link, the first
// visit) was fetched without it: once the worker is ready, the page asks it to keep the situation
// for offline use.
(function () {
  'use strict';

  /** Resolves once the builder (if this page is one) says it is ready: its class `ready`, or after
   * WAIT ms whatever happens (a builder whose data never came still installs the worker). */
  const WAIT = 10000;
  function builderReady() {
    const builder = document.getElementById('builder');
    if (!builder || builder.classList.contains('ready')) return Promise.resolve();
    return new Promise((resolve) => {
      const seen = new MutationObserver(() => {
        if (!builder.classList.contains('ready')) return;
        seen.disconnect();
        resolve();
      });
      seen.observe(builder, {attributes: true, attributeFilter: ['class']});
      setTimeout(resolve, WAIT);
    });
  }

  const idle = () => new Promise((resolve) => {
    if (window.requestIdleCallback) requestIdleCallback(() => resolve(), {timeout: 2000});
    else setTimeout(resolve, 0);
  });

  function register() {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
    if (/^\/s\/[A-Za-z0-9_-]+$/.test(location.pathname)) {
      navigator.serviceWorker.ready.then((registration) => {
        registration.active?.postMessage({keep: location.pathname});
      }).catch(() => {});
    }
  }

  if ('serviceWorker' in navigator) {
    window.addEventListener('load', () => {
      if (document.getElementById('builder')) builderReady().then(idle).then(register);
      else register();
    });
  }
})();
