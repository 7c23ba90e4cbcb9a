// Live job status: while a submission is queued or running, refresh the jobs fragment
// (the same page with ?fragment=1) in place; the page itself is never reloaded. The
// fragment also carries the quota lines, the score history charts and, for each "being
// scored" notice on the page (li.job-<kind>-<id>), the job's outcome, which replaces the
// notice once it is known.
// The page polls about once a second after the page or the list changed, backing off to
// every 5 s while nothing moves; each poll sends the fragment's ETag and an unchanged
// fragment comes back as an empty 304. With no job of the page pending, or in a
// background tab, nothing is polled at all.
(function () {
  const box = document.getElementById("jobs");
  if (box) {
    const notices = () => Array.from(document.querySelectorAll(".messages li.job"));
    const watched = () =>
      notices()
        .map((li) => (li.className.match(/\bjob-([a-z]+-\d+)\b/) || [])[1])
        .filter(Boolean);
    const url = () => {
      const keys = watched();
      return box.dataset.fragmentUrl + (keys.length ? "&watch=" + keys.join(",") : "");
    };
    const pending = () => box.querySelector('[data-pending="1"]') !== null;
    const apply = (updates) => {
      // A notice whose job the server does not know (any more) is no longer watched.
      const known = new Set(Array.from(updates.querySelectorAll("[data-banner]"), (b) => b.dataset.banner));
      notices().forEach((li) => {
        const key = (li.className.match(/\bjob-([a-z]+-\d+)\b/) || [])[1];
        if (!known.has(key)) li.classList.remove("job");
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
    const FAST = 1000, FAST_FOR = 10000, SLOWEST = 5000, SLOW = 1500;
    let delay = FAST, etag = null, changed = Date.now();
    // Once a second for 10 s after a change, then half as often again each time, up to 5 s.
    const next = () => (Date.now() - changed < FAST_FOR ? FAST : Math.min(delay * 1.5, SLOWEST));
    // The fragment's forms come without a CSRF token (so that an unchanged fragment is the
    // same bytes): they get the page's own.
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
    const tick = () => {
      if (!pending() && watched().length === 0) return;
      if (document.hidden) {
        // Do not poll from a background tab; resume when it is shown again.
        document.addEventListener("visibilitychange", tick, { once: true });
        return;
      }
      const headers = { "X-Requested-With": "fetch" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url(), { headers, credentials: "same-origin", cache: "no-store" })
        .then((r) => {
          if (r.status === 304) return undefined; // unchanged: nothing to redraw
          if (!r.ok) return null;
          etag = r.headers.get("ETag");
          return r.text();
        })
        .then((html) => {
          if (html === undefined) {
            delay = next();
            return;
          }
          // Only a real fragment replaces the list (not, say, a login page after a logout).
          if (html !== null && html.includes("data-pending=")) {
            const fragment = document.createElement("template");
            fragment.innerHTML = html;
            const updates = fragment.content.querySelector("[data-live-updates]");
            if (updates) {
              updates.remove();
              apply(updates);
            }
            giveTokens(fragment.content, pageToken());
            box.replaceChildren(fragment.content);
            changed = Date.now(); // something moved: the next step may be close
            delay = next();
          } else {
            etag = null;
            delay = Math.min(Math.max(delay, SLOW) * 2, 15000);
          }
        })
        .catch(() => { delay = Math.min(Math.max(delay, SLOW) * 2, 15000); })
        .finally(() => setTimeout(tick, delay));
    };
    setTimeout(tick, FAST);
  }
  // Sortable tables: click a header with data-sort to sort by that column.
  document.querySelectorAll("table.sortable").forEach((table) => {
    table.querySelectorAll("th[data-sort]").forEach((th, index) => {
      th.addEventListener("click", () => {
        const body = table.tBodies[0];
        const numeric = th.dataset.sort === "num";
        const asc = th.dataset.dir !== "asc";
        th.dataset.dir = asc ? "asc" : "desc";
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        const value = (row) => {
          const text = row.cells[index] ? row.cells[index].textContent.trim() : "";
          if (!numeric) return text;
          const n = parseFloat(text);
          return Number.isNaN(n) ? Infinity : n;
        };
        Array.from(body.rows)
          .sort((a, b) => {
            const x = value(a), y = value(b);
            return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
          })
          .forEach((row) => body.appendChild(row));
      });
    });
  });
})();
