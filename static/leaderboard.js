// The 2015 leaderboard follows the scores without a reload: the page asks for its own
// address with ?fragment=1 (the table and the chart, drawn on the server) and swaps that
// part in when it changed. Each poll sends the last answer's ETag: an unchanged leaderboard
// comes back as an empty 304 (Django's conditional_page). Scores arrive minutes apart, so
// the page asks every 5 s at first and half as often again after each unchanged answer, up
// to once a minute; a change brings it back to 5 s. A background tab asks nothing and asks
// again as soon as it is shown. The reader's sort of the table and an open values table
// are kept across a swap.
(function () {
  const live = document.getElementById("leaderboard-live");
  if (!live || !window.fetch) return;
  const status = document.getElementById("leaderboard-status");
  const FIRST = 5000, SLOWEST = 60000;
  let delay = FIRST, etag = null, timer = null, busy = false;
  let shown = live.innerHTML; // what the server last sent, as the browser serialises it

  const fragmentUrl = () => {
    const url = new URL(window.location.href);
    url.searchParams.set("fragment", "1");
    url.hash = "";
    return url.toString();
  };

  // Sorting, for a table that arrived in a fragment (pwscup.js binds the tables present
  // when the page loads; this one came later).
  const cellValue = (row, index, numeric) => {
    const text = row.cells[index] ? row.cells[index].textContent.trim() : "";
    if (!numeric) return text;
    const n = parseFloat(text);
    return Number.isNaN(n) ? Infinity : n;
  };
  const sortBy = (table, th, asc) => {
    const index = Array.from(th.parentNode.children).indexOf(th);
    const numeric = th.dataset.sort === "num";
    th.dataset.dir = asc ? "asc" : "desc";
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    Array.from(table.tBodies[0].rows)
      .sort((a, b) => {
        const x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
        return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
      })
      .forEach((row) => table.tBodies[0].appendChild(row));
  };
  const bindSorting = (table) => {
    table.querySelectorAll("th[data-sort]").forEach((th) => {
      th.addEventListener("click", () => sortBy(table, th, th.dataset.dir !== "asc"));
    });
  };

  const swap = (fresh) => {
    const table = live.querySelector("table.sortable");
    const sorted = table ? table.querySelector("th[data-dir]") : null;
    const column = sorted ? Array.from(sorted.parentNode.children).indexOf(sorted) : -1;
    const asc = sorted ? sorted.dataset.dir === "asc" : true;
    const open = Array.from(live.querySelectorAll("details[open]"), (d) => d.dataset.testid);
    live.replaceChildren(...fresh.childNodes);
    shown = live.innerHTML;
    const newTable = live.querySelector("table.sortable");
    if (newTable) {
      bindSorting(newTable);
      const th = column >= 0 ? newTable.querySelectorAll("thead th")[column] : null;
      if (th && th.dataset.sort) sortBy(newTable, th, asc);
    }
    open.forEach((id) => {
      const details = live.querySelector(`details[data-testid="${id}"]`);
      if (details) details.open = true;
    });
    if (status && status.dataset.updated) {
      const time = new Date().toLocaleTimeString(document.documentElement.lang || undefined);
      status.textContent = status.dataset.updated.replace("{time}", time);
    }
  };

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(poll, delay);
  };
  const slower = () => { delay = Math.min(delay * 1.5, SLOWEST); };

  function poll() {
    if (document.hidden || busy) return; // a hidden tab waits for visibilitychange
    busy = true;
    const headers = { "X-Requested-With": "fetch" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(fragmentUrl(), { headers, credentials: "same-origin", cache: "no-store" })
      .then((response) => {
        if (response.status === 304 || !response.ok) return null;
        etag = response.headers.get("ETag");
        return response.text();
      })
      .then((html) => {
        const template = document.createElement("template");
        if (html) template.innerHTML = html;
        // Only a real fragment replaces the leaderboard (not, say, a login page).
        const fresh = html ? template.content.getElementById("leaderboard-live") : null;
        if (fresh && fresh.innerHTML !== shown) {
          swap(fresh);
          delay = FIRST;
        } else {
          slower();
        }
      })
      .catch(slower)
      .finally(() => {
        busy = false;
        if (!document.hidden) schedule();
      });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.hidden) {
      clearTimeout(timer);
    } else {
      delay = FIRST;
      poll();
    }
  });
  schedule();
})();
