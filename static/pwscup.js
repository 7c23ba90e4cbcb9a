// Live job status: while a submission is queued or running, refresh the jobs fragment.
(function () {
  const box = document.getElementById("jobs");
  if (box) {
    const url = box.dataset.fragmentUrl;
    const pending = () => box.querySelector('[data-pending="1"]') !== null;
    const tick = () => {
      if (!pending()) return;
      fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
        .then((r) => (r.ok ? r.text() : null))
        .then((html) => { if (html !== null) box.innerHTML = html; })
        .finally(() => setTimeout(tick, 1500));
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
