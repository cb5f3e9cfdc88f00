/* What tests/test_browser_fit.py reads from a page at the window's present width: a list
   of problems (empty: the page fits) and how many chart axes and heatmaps it checked.

   - the page is no wider than the window (a wide table or chart scrolls in its own box);
   - at a desktop width (`desktop`), no table scrolls sideways: every column is in view,
     save in a participant × participant matrix (its titles are its rows' names), which
     grows with the cast and scrolls with its name column pinned, and in a chart's key,
     which scrolls beside its chart by design;
   - an interval ("[80,59; 86,05]") never breaks across lines;
   - every value of a chart's discrete axis (a heatmap's rows and columns) has its label,
     whole (not shortened with "…"), clear of its neighbours' (slanted labels included);
     a heatmap's labels are the names of its data table's rows and columns.
   Folded parts (<details>) are opened first, so that their tables are laid out too. */
(desktop) => {
  const problems = [];
  const name = element => (element.closest("[id]") || {}).id || element.tagName;
  document.querySelectorAll("details").forEach(details => { details.open = true; });

  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) {
    problems.push(`page ${width} px wide in a ${window.innerWidth} px window`);
  }

  const cellTexts = cells => Array.from(cells, cell => cell.textContent.trim());
  function pinnedMatrix(table) {
    const titles = cellTexts(table.tHead.rows[0].cells).slice(1);
    const names = cellTexts(Array.from(table.tBodies[0].rows, row => row.cells[0]));
    return titles.length > 1 && titles.join("\n") === names.join("\n") &&
      table.tHead.rows[0].cells[0].classList.contains("rg-sticky");
  }
  if (desktop) {
    document.querySelectorAll(".rg-table-wrap").forEach(wrap => {
      const table = wrap.querySelector("table");
      if (!table || wrap.scrollWidth <= wrap.clientWidth + 1) { return; }
      if (wrap.closest(".rg-chart-key") || pinnedMatrix(table)) { return; }
      problems.push(`table ${table.id} cut: ${wrap.scrollWidth} px in ${wrap.clientWidth} px`);
    });
  }

  // The range of characters [start, end) of `cell`'s text, across its text nodes.
  function rangeOf(cell, start, end) {
    const range = document.createRange();
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let offset = 0, started = false, node;
    while ((node = walker.nextNode())) {
      const length = node.data.length;
      if (!started && start <= offset + length) { range.setStart(node, start - offset); started = true; }
      if (started && end <= offset + length) { range.setEnd(node, end - offset); break; }
      offset += length;
    }
    return range;
  }
  document.querySelectorAll(".rg-table td, .rg-table th").forEach(cell => {
    const interval = /\[[^\[\]\n]{1,32}\]/g;
    let match;
    while ((match = interval.exec(cell.textContent))) {
      const rects = Array.from(rangeOf(cell, match.index, interval.lastIndex).getClientRects())
        .filter(rect => rect.width > 0);
      const tops = rects.map(rect => rect.top);
      if (tops.length && Math.max(...tops) - Math.min(...tops) > 4) {
        problems.push(`${name(cell)}: "${match[0]}" breaks across lines`);
      }
    }
  });

  // Two labels of one axis overlap unless they lie on parallel lines far enough apart, or
  // far enough along their own direction (for any anchor, the longer label's length).
  function clear(a, b) {
    const dx = b.x - a.x, dy = b.y - a.y;
    const along = Math.abs(dx * Math.cos(a.angle) + dy * Math.sin(a.angle));
    const across = Math.abs(-dx * Math.sin(a.angle) + dy * Math.cos(a.angle));
    return across >= 0.8 * Math.max(a.size, b.size) || along >= Math.max(a.length, b.length);
  }
  function placed(text) {
    const m = text.getCTM();
    return {
      x: m.e, y: m.f, angle: Math.atan2(m.b, m.a), length: text.getComputedTextLength(),
      size: parseFloat(getComputedStyle(text).fontSize), text: text.textContent,
    };
  }
  const shown = text => text.getAttribute("opacity") !== "0" && getComputedStyle(text).opacity !== "0";
  let axes = 0, heatmaps = 0;
  const labelsOf = {};
  document.querySelectorAll("figure.rg-chart .rg-vega svg g.role-axis").forEach(axis => {
    const values = /(\w)-axis .*discrete scale with (\d+) value/.exec(axis.getAttribute("aria-label") || "");
    if (!values) { return; }
    axes += 1;
    const chart = axis.closest("figure.rg-chart").id, expected = Number(values[2]);
    const labels = Array.from(axis.querySelectorAll("g.role-axis-label text")).filter(shown).map(placed);
    (labelsOf[chart] = labelsOf[chart] || {})[values[1]] = labels.map(label => label.text);
    if (labels.length !== expected) {
      problems.push(`${chart}: ${values[1]} axis labels ${labels.length} of ${expected} values`);
    }
    labels.filter(label => label.text.endsWith("…")).forEach(label => {
      problems.push(`${chart}: ${values[1]} axis label shortened to "${label.text}"`);
    });
    labels.slice(1).forEach((label, index) => {
      if (!clear(labels[index], label)) {
        problems.push(`${chart}: ${values[1]} axis labels "${labels[index].text}" and "${label.text}" overlap`);
      }
    });
  });
  document.querySelectorAll("figure.rg-chart[id^='heatmap-']").forEach(figure => {
    heatmaps += 1;
    const table = figure.querySelector("table");
    const labels = labelsOf[figure.id] || {};
    const rows = cellTexts(Array.from(table.tBodies[0].rows, row => row.cells[0]));
    const columns = cellTexts(table.tHead.rows[0].cells).slice(1);
    if ((labels.Y || []).join("\n") !== rows.join("\n")) {
      problems.push(`${figure.id}: rows labelled ${JSON.stringify(labels.Y)}, not ${JSON.stringify(rows)}`);
    }
    if ((labels.X || []).join("\n") !== columns.join("\n")) {
      problems.push(`${figure.id}: columns labelled ${JSON.stringify(labels.X)}, not ${JSON.stringify(columns)}`);
    }
  });
  return {problems, axes, heatmaps};
}
