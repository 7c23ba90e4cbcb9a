// Live status: one script for every page that follows background jobs (a team's uploads in
// every kind's round pages, the console's round page). docs/architecture.md, "The web tier".
//
// The page's box (data-live-url) carries the ETag of its scope's version, read by the server
// before the jobs it shows (data-live-etag). While a job is pending (data-pending="1" on the
// box or inside it, or a "being scored" notice li.job-<kind>-<id> on the page), the script
// asks the poll address "changed since this ETag?" with If-None-Match: an unchanged scope is
// an empty 304 answered from the version alone. When it changed (200, with the new ETag),
// the box's fragment (data-fragment-url) is fetched and swapped in, or, for a page without a
// fragment, the page is reloaded. The fragment also carries the quota lines, the score
// history charts (data-live) and, for each notice, the job's outcome (data-banner), which
// replaces the notice once it is known. The presentations page follows the team's jobs of no
// round (its slides) the same way.
//
// Cadence: about once a second for 10 s after the page loaded or something changed, then
// half as often again each time, up to every 5 s; nothing at all with no job pending, or
// from a background tab (resumed when it is shown).
//
// A page without a fragment is not reloaded while the reader is filling in one of its forms
// (a file chosen for the next upload, a note typed, a choice made): the reload would throw
// what they chose away. Such a page keeps polling and reloads once the forms are back as the
// page drew them (a form reset); sending the form brings a fresh page anyway.
(function () {
  "use strict";
  const box = document.querySelector("[data-live-url]");
  if (!box) return;
  const liveUrl = box.dataset.liveUrl;
  const fragmentUrl = box.dataset.fragmentUrl || null;
  const notices = () => Array.from(document.querySelectorAll(".messages li.job"));
  const keyOf = (li) => (li.className.match(/\bjob-([a-z]+-\d+)\b/) || [])[1];
  const watched = () => notices().map(keyOf).filter(Boolean);
  const pending = () =>
    box.dataset.pending === "1" ||
    box.querySelector('[data-pending="1"]') !== null ||
    watched().length > 0;
  const withWatch = (url) => {
    const keys = watched();
    return url + (keys.length ? "&watch=" + keys.join(",") : "");
  };
  const apply = (updates) => {
    // A notice whose job the server does not know (any more) is no longer watched.
    const known = new Set(Array.from(updates.querySelectorAll("[data-banner]"), (b) => b.dataset.banner));
    notices().forEach((li) => {
      if (!known.has(keyOf(li))) li.classList.remove("job");
    });
    updates.querySelectorAll("[data-live]").forEach((fresh) => {
      const current = document.querySelector(`[data-live="${fresh.dataset.live}"]`);
      if (current) current.replaceWith(fresh);
    });
    updates.querySelectorAll("[data-banner]").forEach((outcome) => {
      const status = outcome.dataset.status;
      if (status !== "finished" && status !== "failed") return;
      const li = document.querySelector(`.messages li.job-${outcome.dataset.banner}`);
      if (!li) return;
      li.textContent = outcome.textContent;
      li.classList.remove("job", "success", "error");
      li.classList.add(status === "failed" ? "error" : "success");
      li.dataset.jobStatus = status;
    });
  };
  // The fragment's forms come without a CSRF token (Django masks it anew on every request):
  // they get the page's own.
  const pageToken = () => {
    const input = document.querySelector('input[name="csrfmiddlewaretoken"]');
    return input ? input.value : null;
  };
  const giveTokens = (root, token) => {
    if (!token) return;
    root.querySelectorAll('form[method="post"]').forEach((form) => {
      if (form.querySelector('input[name="csrfmiddlewaretoken"]')) return;
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = token;
      form.prepend(input);
    });
  };
  // Only a real fragment replaces the box (not, say, a login page after a logout).
  const swap = (html) => {
    if (html === null || !html.includes("data-pending=")) return false;
    const fragment = document.createElement("template");
    fragment.innerHTML = html;
    const updates = fragment.content.querySelector("[data-live-updates]");
    if (updates) {
      updates.remove();
      apply(updates);
    }
    giveTokens(fragment.content, pageToken());
    box.replaceChildren(fragment.content);
    return true;
  };
  // Whether a field of one of the page's forms differs from what the page drew.
  const changedField = (field) => {
    if (field.type === "hidden" || field.disabled) return false;
    if (field.type === "file") return field.files.length > 0;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      const options = Array.from(field.options);
      if (field.multiple) return options.some((o) => o.selected !== o.defaultSelected);
      // With no option marked selected, the browser shows the first.
      return options.length > 0 && field.selectedIndex !== Math.max(0, options.findIndex((o) => o.defaultSelected));
    }
    return "defaultValue" in field && field.value !== field.defaultValue;
  };
  const filling = () =>
    Array.from(document.forms).some((form) => Array.from(form.elements).some(changedField));
  const text = (response) => (response.ok ? response.text() : null);
  const get = (url, headers) =>
    fetch(url, { headers: { "X-Requested-With": "fetch", ...headers }, credentials: "same-origin", cache: "no-store" });

  const FAST = 1000, FAST_FOR = 10000, SLOWEST = 5000, SLOW = 1500, BROKEN = 15000;
  // A page with notices to resolve starts without an ETag: its first poll fetches the
  // fragment, whose outcomes replace notices of jobs that ended before the page was drawn.
  let etag = watched().length ? null : box.dataset.liveEtag || null;
  let delay = FAST, changed = Date.now();
  const next = () => (Date.now() - changed < FAST_FOR ? FAST : Math.min(delay * 1.5, SLOWEST));
  const moved = () => { changed = Date.now(); delay = next(); };
  const failed = () => { delay = Math.min(Math.max(delay, SLOW) * 2, BROKEN); };

  // One poll; resolves to true when the page is being reloaded (nothing more to schedule).
  const poll = () =>
    get(liveUrl, etag ? { "If-None-Match": etag } : {}).then((response) => {
      if (response.status === 304) { delay = next(); return false; }
      if (!response.ok) { failed(); return false; }
      const before = etag;
      etag = response.headers.get("ETag");
      if (!fragmentUrl) {
        if (before === null) return false; // nothing known to compare with: keep the page
        if (filling()) { etag = before; delay = SLOWEST; return false; } // ask again later
        window.location.reload();
        return true;
      }
      return get(withWatch(fragmentUrl), {}).then(text).then((html) => {
        if (swap(html)) moved();
        else { etag = before; failed(); } // not redrawn: ask again next time
        return false;
      });
    });
  const tick = () => {
    if (!pending()) return;
    if (document.hidden) {
      // Do not poll from a background tab; resume when it is shown again.
      document.addEventListener("visibilitychange", tick, { once: true });
      return;
    }
    poll()
      .catch(() => { failed(); return false; })
      .then((reloading) => { if (!reloading) setTimeout(tick, delay); });
  };
  setTimeout(tick, FAST);
})();
