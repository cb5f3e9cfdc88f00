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

  /* The compare page: the choice lives in the URL (compare.html?round=<id>&a=<id>&b=<id>),
     so a comparison can be linked to. Without JavaScript the controls stay hidden and
     every round's table shows every model. */
  function setUpCompare() {
    var box = document.querySelector(".rg-compare");
    if (!box) { return; }
    var roundChoice = box.querySelector(".rg-compare-round");
    var pair = box.querySelector(".rg-compare-pair");
    var permalink = box.querySelector(".rg-compare-permalink");
    var rounds = Array.prototype.map.call(roundChoice.options, function (o) { return o.value; });
    var params = new URLSearchParams(window.location.search);
    var legacy = window.location.hash.replace("#", "");  /* older links: compare.html#<id> */

    function inRound(selector, round) {
      return document.querySelector(selector + '[data-round="' + round + '"]');
    }
    function choices(round) {
      var pick = inRound(".rg-compare-pick", round);
      return { first: pick.querySelector(".rg-compare-a"), second: pick.querySelector(".rg-compare-b") };
    }
    function idsOf(select) {
      return Array.prototype.map.call(select.options, function (o) { return o.value; });
    }
    /* A valid pair of two different models of the round, as close to the wish as can be. */
    function settle(round, wantedFirst, wantedSecond) {
      var picked = choices(round), ids = idsOf(picked.first);
      var first = ids.indexOf(wantedFirst) >= 0 ? wantedFirst : ids[0];
      var second = ids.indexOf(wantedSecond) >= 0 && wantedSecond !== first ? wantedSecond
        : ids.filter(function (id) { return id !== first; })[0] || first;
      picked.first.value = first;
      picked.second.value = second;
    }
    function showPair(round, first, second) {
      pair.replaceChildren();
      var table = document.getElementById("differences-" + round);
      if (!table) { return; }
      var row = Array.prototype.filter.call(table.tBodies[0].rows, function (r) {
        return r.cells[0].getAttribute("data-sort") === first &&
          r.cells[1].getAttribute("data-sort") === second;
      })[0];
      if (!row) { return; }
      var copy = document.createElement("table");
      copy.className = "rg-table";
      var caption = copy.appendChild(table.caption.cloneNode(true));
      caption.id = "differences-pair-caption";  /* the original keeps its own id */
      copy.appendChild(table.tHead.cloneNode(true));
      copy.appendChild(document.createElement("tbody")).appendChild(row.cloneNode(true));
      /* Scrolls inside its own named, focusable region on a phone, as every table does
         (reportgen/render/table.py), instead of widening the page. */
      var wrap = document.createElement("div");
      wrap.className = "rg-table-wrap";
      wrap.setAttribute("role", "region");
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("aria-labelledby", caption.id);
      wrap.appendChild(copy);
      pair.appendChild(wrap);
    }
    function update() {
      var round = roundChoice.value, picked = choices(round);
      var first = picked.first.value, second = picked.second.value;
      document.querySelectorAll(".rg-compare-pick, .rg-compare-section").forEach(function (el) {
        el.hidden = el.getAttribute("data-round") !== round;
      });
      var table = document.getElementById("compare-" + round);
      var ids = idsOf(picked.first);
      var keep = [0, ids.indexOf(first) + 1, ids.indexOf(second) + 1];
      Array.prototype.forEach.call(table.rows, function (row) {
        Array.prototype.forEach.call(row.cells, function (cell, index) {
          cell.hidden = keep.indexOf(index) < 0;
        });
      });
      showPair(round, first, second);
      var query = "?round=" + encodeURIComponent(round) + "&a=" + encodeURIComponent(first) +
        "&b=" + encodeURIComponent(second);
      try {
        window.history.replaceState(null, "", window.location.pathname + query);
      } catch (error) { /* a page opened from disk may not rewrite its address */ }
      permalink.setAttribute("href", query);
    }

    var round = rounds.indexOf(params.get("round")) >= 0 ? params.get("round") : rounds[0];
    roundChoice.value = round;
    rounds.forEach(function (r) {
      var wanted = r === round ? (params.get("a") || legacy) : null;
      settle(r, wanted, r === round ? params.get("b") : null);
      var picked = choices(r);
      picked.first.addEventListener("change", function () {
        settle(r, picked.first.value, picked.second.value);
        update();
      });
      picked.second.addEventListener("change", function () {
        settle(r, picked.first.value, picked.second.value);
        update();
      });
    });
    roundChoice.addEventListener("change", function () {
      /* The same two models in the new round when it has them. */
      var previous = choices(round);
      settle(roundChoice.value, previous.first.value, previous.second.value);
      round = roundChoice.value;
      update();
    });
    box.hidden = false;
    update();
  }


  /* A long table (data-rg-pager, from reportgen/render/table.py): 50 rows a page, a filter
     on the rows' text, and a button that shows every row. Its labels come with the table,
     in the page's language. Without JavaScript nothing is hidden: the whole table shows. */
  var PAGE_ROWS = 50;

  function folded(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }

  function setUpPager(wrap, index) {
    var table = wrap.querySelector("table");
    if (!table || !table.tBodies[0]) { return; }
    var body = table.tBodies[0];
    var language = document.documentElement.lang || undefined;
    function label(name) { return wrap.getAttribute("data-rg-pager-" + name) || ""; }
    function count(value) { return value.toLocaleString(language); }
    function button(text) {
      var made = document.createElement("button");
      made.type = "button";
      made.className = "rg-pager-button";
      made.textContent = text;
      made.setAttribute("aria-controls", table.id);
      return made;
    }
    var controls = document.createElement("div");
    controls.className = "rg-pager";
    var field = document.createElement("div");
    field.className = "rg-pager-field";
    var input = document.createElement("input");
    input.type = "search";
    input.id = (table.id || "rg-table-" + index) + "-filter";
    input.setAttribute("aria-controls", table.id);
    input.setAttribute("aria-describedby", input.id + "-hint");
    input.autocomplete = "off";
    var name = document.createElement("label");
    name.htmlFor = input.id;
    name.textContent = label("filter");
    var hint = document.createElement("p");
    hint.id = input.id + "-hint";
    hint.className = "rg-pager-hint";
    hint.textContent = label("filter_hint");
    field.append(name, input, hint);
    var previous = button(label("previous")), next = button(label("next"));
    var all = button(label("all"));
    all.setAttribute("aria-pressed", "false");
    var status = document.createElement("p");
    status.className = "rg-pager-status";
    status.setAttribute("role", "status");
    var nav = document.createElement("div");
    nav.className = "rg-pager-nav";
    nav.append(previous, next, all);
    controls.append(field, nav, status);
    wrap.parentNode.insertBefore(controls, wrap);

    var page = 0, showAll = false;
    function update() {
      var query = folded(input.value);
      var rows = Array.prototype.slice.call(body.rows);  /* in their order now (sorting) */
      var matched = rows.filter(function (row) {
        var keep = !query || folded(row.textContent).indexOf(query) >= 0;
        row.hidden = !keep;
        return keep;
      });
      var pages = Math.max(1, Math.ceil(matched.length / PAGE_ROWS));
      page = Math.min(page, pages - 1);
      var first = showAll ? 0 : page * PAGE_ROWS;
      var last = showAll ? matched.length : Math.min(matched.length, first + PAGE_ROWS);
      matched.forEach(function (row, position) {
        row.hidden = position < first || position >= last;
      });
      previous.disabled = showAll || page === 0;
      next.disabled = showAll || page >= pages - 1;
      all.textContent = label(showAll ? "paged" : "all");
      all.setAttribute("aria-pressed", String(showAll));
      status.textContent = matched.length === 0 ? label("none") : label("status")
        .replace("{first}", count(first + 1)).replace("{last}", count(last))
        .replace("{count}", count(matched.length));
    }
    input.addEventListener("input", function () { page = 0; update(); });
    previous.addEventListener("click", function () { page -= 1; update(); });
    next.addEventListener("click", function () { page += 1; update(); });
    all.addEventListener("click", function () { showAll = !showAll; update(); });
    /* A click on a column title sorts first (its own listener), then the pages follow. */
    if (table.tHead) { table.tHead.addEventListener("click", update); }
    update();
  }

  function start() {
    document.querySelectorAll("table.sortable").forEach(makeSortable);
    document.querySelectorAll(".rg-table-wrap[data-rg-pager]").forEach(setUpPager);
    setUpCompare();
    renderCharts();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
