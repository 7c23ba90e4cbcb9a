(function () {
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
