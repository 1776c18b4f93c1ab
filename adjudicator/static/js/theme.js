// The colour scheme the reader chose with the builder's "Colours" switch ('light' or 'dark'),
// put on <html data-theme> before the page is drawn, so no page flashes in the other scheme. No
// choice: the phone's setting decides (site.css: each colour is light-dark(light, dark)). A
// classic script loaded without `defer` in every page's <head>: it must run before the first paint.
(function () {
  'use strict';

  try {
    const theme = localStorage.getItem('adjudicator.theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
  } catch {
    // storage blocked (private mode): the phone's setting decides
  }
  // The builder opened on a link that holds a situation: its first paint already says the
  // situation is being read, with the room its ruling will take (builder.css, data-linked).
  if (location.pathname === '/builder' && location.hash.length > 1) document.documentElement.dataset.linked = '';
})();
