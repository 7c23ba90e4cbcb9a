// Organizer console: while a freeze, rescore or publication runs in the background, poll
// its progress (operations.json) and reload the control page whenever it moves, so the
// counts, targets and progress bars stay current. Nothing runs when nothing is under way.
(function () {
  "use strict";
  var panel = document.querySelector("[data-operations-url]");
  if (!panel || panel.getAttribute("data-active") !== "1") return;
  var url = panel.getAttribute("data-operations-url");
  var last = null;
  function busy(summary) {
    var builtin = summary.builtin || {};
    return summary.operations.some(function (op) { return op.active; }) ||
      (builtin.queued || 0) + (builtin.running || 0) > 0;
  }
  function poll() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (summary) {
        if (!summary) return;
        var text = JSON.stringify(summary);
        if (last !== null && text !== last) { window.location.reload(); return; }
        last = text;
        if (busy(summary)) window.setTimeout(poll, 1500);
        else if (last !== null) window.location.reload();
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 1000);
})();
