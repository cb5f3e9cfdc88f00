/* Estigmas companion site: live charts, sortable tables, model comparison.
   Everything here runs offline; Vega comes from the vendored bundle. */
(function () {
  "use strict";

  function renderCharts() {
    document.querySelectorAll(".rg-vega[data-spec]").forEach(function (holder) {
      var source = document.getElementById(holder.getAttribute("data-spec"));
      if (!source || typeof window.vegaEmbed !== "function") { return; }
      var spec = JSON.parse(source.textContent);
      var target = document.createElement("div");
      target.className = "rg-vega-live";
      window.vegaEmbed(target, spec, { actions: false, renderer: "svg" }).then(function () {
        holder.replaceChildren(target);
        holder.setAttribute("data-rendered", "true");
      }).catch(function (error) {
        holder.setAttribute("data-error", String(error));
      });
      holder.appendChild(target);
    });
  }

  function sortValue(cell) {
    var raw = cell.getAttribute("data-sort");
    if (raw === null) { return cell.textContent.trim().toLowerCase(); }
    var number = Number(raw);
    return isNaN(number) ? raw.toLowerCase() : number;
  }

  // Each column title becomes a button (keyboard and screen readers know it acts); the
  // arrow after it (site.css) shows that the column sorts, and which way it is sorted.
  function makeSortable(table) {
    var headers = table.querySelectorAll("thead th");
    headers.forEach(function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rg-sort";
      while (header.firstChild) { button.appendChild(header.firstChild); }
      header.appendChild(button);
      header.setAttribute("aria-sort", "none");
      function sort() {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = sortValue(a.cells[column]), y = sortValue(b.cells[column]);
          if (x < y) { return ascending ? -1 : 1; }
          if (x > y) { return ascending ? 1 : -1; }
          return 0;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      }
      button.addEventListener("click", sort);
    });
  }

  function setUpCompare() {
    var box = document.querySelector(".rg-compare");
    var table = document.getElementById("compare-table");
    if (!box || !table) { return; }
    var first = box.querySelector(".rg-compare-a");
    var second = box.querySelector(".rg-compare-b");
    var ids = Array.prototype.map.call(first.options, function (o) { return o.value; });
    var wanted = window.location.hash.replace("#", "");
    if (ids.indexOf(wanted) >= 0) { first.value = wanted; }
    function update() {
      var keep = [0, ids.indexOf(first.value) + 1, ids.indexOf(second.value) + 1];
      Array.prototype.forEach.call(table.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, index) {
          cell.hidden = keep.indexOf(index) < 0;
        });
      });
    }
    first.addEventListener("change", update);
    second.addEventListener("change", update);
    update();
  }

  function start() {
    document.querySelectorAll("table.sortable").forEach(makeSortable);
    setUpCompare();
    renderCharts();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
