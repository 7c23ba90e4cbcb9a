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

  // The round's tab bar on a narrow screen: the current tab scrolled into view, and a "›"
  // cue (class more-right, static/pwscup.css) while more tabs lie to the right.
  document.querySelectorAll(".round-tabs").forEach((bar) => {
    const update = () => {
      bar.classList.toggle("more-right", bar.scrollLeft + bar.clientWidth < bar.scrollWidth - 2);
    };
    const current = bar.querySelector('[aria-current="page"]');
    if (current && current.offsetLeft + current.offsetWidth > bar.clientWidth) {
      bar.scrollLeft = current.offsetLeft - bar.offsetLeft;
    }
    bar.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    update();
  });

  // The reader's own team in a chart drawn once for every reader (the 2015 leaderboard's
  // scatter, cached per ranking version): an element with data-own-team names the team's
  // slug; its point and label (data-team) get the class "own" (static/leaderboard.css) and
  // the point is moved last, on top of the others. Again whenever a live part is swapped in.
  const markOwn = () => {
    document.querySelectorAll("[data-own-team]:not([data-own-marked])").forEach((holder) => {
      holder.setAttribute("data-own-marked", "");
      const slug = holder.dataset.ownTeam;
      if (!slug) return;
      holder.querySelectorAll("[data-team]").forEach((mark) => {
        if (mark.dataset.team !== slug) return;
        mark.classList.add("own");
        if (mark.matches("circle.point")) {
          const points = mark.parentNode.querySelectorAll("circle.point");
          const last = points[points.length - 1];
          if (last !== mark) last.after(mark);
        }
      });
    });
  };
  markOwn();
  if (window.MutationObserver && document.querySelector("[data-own-team]")) {
    new MutationObserver(markOwn).observe(document.body, { childList: true, subtree: true });
  }

  // A page restored by Back or Forward from the browser's back/forward cache is asked for
  // again before anyone reads it (docs/operations.md, "Log-out"): its header names the viewer
  // it was drawn for and its forms carry a CSRF token, and since then that viewer may have
  // logged out and another logged in (a kept page revalidates as an empty 304 when nothing
  // changed). It is hidden as it enters that cache, so the restored copy is never seen.
  window.addEventListener("pagehide", (event) => {
    if (event.persisted) document.body.hidden = true;
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) window.location.reload();
  });
})();
