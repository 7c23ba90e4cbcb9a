// Live job status: while a submission is queued or running, refresh the jobs fragment
// (the same page with ?fragment=1) in place; the page itself is never reloaded.
(function () {
  const box = document.getElementById("jobs");
  if (box) {
    const url = box.dataset.fragmentUrl;
    const pending = () => box.querySelector('[data-pending="1"]') !== null;
    let delay = 1500;
    const tick = () => {
      if (!pending()) return;
      if (document.hidden) {
        // Do not poll from a background tab; resume when it is shown again.
        document.addEventListener("visibilitychange", tick, { once: true });
        return;
      }
      fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin", cache: "no-store" })
        .then((r) => (r.ok ? r.text() : null))
        .then((html) => {
          // Only a real fragment replaces the list (not, say, a login page after a logout).
          if (html !== null && html.includes("data-pending=")) {
            box.innerHTML = html;
            delay = 1500;
          } else {
            delay = Math.min(delay * 2, 15000);
          }
        })
        .catch(() => { delay = Math.min(delay * 2, 15000); })
        .finally(() => setTimeout(tick, delay));
    };
    setTimeout(tick, 1000);
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
