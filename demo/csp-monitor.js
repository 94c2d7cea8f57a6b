// Records every Content-Security-Policy violation on the page (loaded first, before the widget),
// shows the count, and keeps the reports on `window.cspViolations` for the end-to-end tests.
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  window.cspViolations.push({
    directive: event.effectiveDirective,
    blockedURI: event.blockedURI,
    sample: event.sample,
  });
  const counter = document.getElementById('csp-violation-count');
  if (counter) counter.textContent = String(window.cspViolations.length);
});
