/* The computation-times page (docs/<lang>/times.md, tables made by scripts/pytorch_notes/render/times.py):
   a click on a column's header sorts the table by it. tablesort 5.6.0 and its number sort, vendored from
   the npm package "tablesort" (dist/tablesort.min.js, dist/sorts/tablesort.number.min.js; MIT, LICENSE
   beside them), so the page makes no third-party request. Numeric columns carry data-sort-method="number"
   and each cell its value in data-sort. Material's document$ emits on every page load. */
document$.subscribe(function () {
  if (typeof Tablesort === "undefined") return;
  document.querySelectorAll(".pn-times table").forEach(function (table) {
    if (table.hasAttribute("data-pn-sortable")) return;
    table.setAttribute("data-pn-sortable", "");
    new Tablesort(table);
  });
});
