// decodebench site: on a feature page, shows the record of the plot's
// point nearest the mouse, opens it on a click, and lets the keyboard do
// the same (Tab to a plot, the arrow keys, Home and End between its
// points, Enter opens one, Escape hides the tip); on the top page,
// filters the rows by hardware. It reads only the page's own data (the
// JSON blocks the page embeds: the history as `decodebench history
// --json` writes it, and where each plot's points stand) and builds no
// HTML from it: text only.
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var HIT = 9; // how near, in the plot's units, the mouse must be to a point
  var tip = document.getElementById('tip');

  function readJSON(id) {
    var el = document.getElementById(id);
    if (!el) return null;
    try { return JSON.parse(el.textContent); } catch (e) { return null; }
  }
  var hist = readJSON('history-data');
  var data = readJSON('plot-data');

  function fixed(v, d) { return typeof v === 'number' ? v.toFixed(d) : '?'; }
  function sig(v) { return typeof v === 'number' ? String(Number(v.toPrecision(4))) : '?'; }

  // describe is the record behind a point's ref: "s.m.i" is point i of
  // metric m of series s of the history, "x.k" the k-th record marked
  // without a value (REJECTED).
  function describe(ref) {
    var at = String(ref).split('.');
    if (at[0] === 'x') {
      var r = data.marked[+at[1]];
      return r ? { p: r, value: r.verdict + ': no value' } : null;
    }
    var s = hist && hist.series[+at[0]];
    var m = s && s.metrics[+at[1]];
    var p = m && m.points[+at[2]];
    if (!p) return null;
    var interval = p.lo !== undefined || p.hi !== undefined;
    var value;
    if (m.kind === 'ratio') {
      value = m.arm + ' / ' + m.baseline + ' ' + m.metric + ': ' + fixed(p.value, 3) + '×';
      if (interval) value += ' [' + fixed(p.lo || 0, 3) + ', ' + fixed(p.hi || 0, 3) + ']';
    } else {
      value = m.arm + ' ' + m.metric + ': ' + sig(p.value) + (m.unit ? ' ' + m.unit : '');
      if (interval) value += ' [' + sig(p.lo || 0) + ', ' + sig(p.hi || 0) + ']';
    }
    return { p: p, value: value };
  }

  // A record's page is r/STEM.html beside the feature pages' folder, or
  // the one the page names for it when its file name is not plain.
  function pageOf(stem) {
    return '../' + (data.pages[stem] || 'r/' + stem + '.html');
  }

  function pointsOf(svg) { return data && data.plots[svg.id]; }

  function cursor(svg) {
    var c = svg.querySelector('circle.cursor');
    if (!c) {
      c = document.createElementNS(SVG, 'circle');
      c.setAttribute('class', 'cursor');
      c.setAttribute('r', '6');
      svg.appendChild(c);
    }
    return c;
  }

  // select shows point i of a plot: the cursor on it, its record in the
  // tip.
  function select(svg, i) {
    var pts = pointsOf(svg);
    if (!pts || i < 0 || i >= pts.ref.length) return;
    var d = describe(pts.ref[i]);
    if (!d) return;
    svg.setAttribute('data-i', String(i));
    var c = cursor(svg);
    c.setAttribute('cx', String(pts.x[i]));
    c.setAttribute('cy', String(pts.y[i]));
    c.setAttribute('visibility', 'visible');
    tip.textContent = [
      d.p.record,
      d.p.date + ' · ' + d.p.verdict,
      d.value,
      'engine: ' + (d.p.engine_version || 'version unknown'),
      'commit: ' + (d.p.source_commit || 'none recorded')
    ].join('\n');
    tip.setAttribute('data-record', d.p.record);
    tip.setAttribute('data-ref', pts.ref[i]);
    tip.hidden = false;
    var at = svg.createSVGPoint();
    at.x = pts.x[i];
    at.y = pts.y[i];
    at = at.matrixTransform(svg.getScreenCTM());
    var x = at.x + window.scrollX + 14, y = at.y + window.scrollY + 10;
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
    var right = window.scrollX + document.documentElement.clientWidth - 8;
    if (x + tip.offsetWidth > right) tip.style.left = Math.max(0, x - tip.offsetWidth - 28) + 'px';
  }

  function unselect(svg) {
    var c = svg.querySelector('circle.cursor');
    if (c) c.setAttribute('visibility', 'hidden');
    svg.classList.remove('hot');
    tip.hidden = true;
  }

  // nearest is the first of a plot's points nearest the mouse, within
  // HIT; -1 for none.
  function nearest(svg, e) {
    var pts = pointsOf(svg);
    if (!pts) return -1;
    var at = svg.createSVGPoint();
    at.x = e.clientX;
    at.y = e.clientY;
    at = at.matrixTransform(svg.getScreenCTM().inverse());
    var best = -1, bestD = HIT * HIT;
    for (var i = 0; i < pts.x.length; i++) {
      var dx = pts.x[i] - at.x, dy = pts.y[i] - at.y, d = dx * dx + dy * dy;
      if (d <= bestD && (best < 0 || d < bestD)) { best = i; bestD = d; }
    }
    return best;
  }

  function plotOf(e) {
    return e.target && e.target.closest ? e.target.closest('svg.plot') : null;
  }

  function open(svg, i) {
    var pts = pointsOf(svg), d = pts && describe(pts.ref[i]);
    if (d) window.location.href = pageOf(d.p.record);
  }

  if (data && tip) {
    document.addEventListener('mousemove', function (e) {
      var svg = plotOf(e);
      if (!svg) return;
      var i = nearest(svg, e);
      if (i >= 0) {
        svg.classList.add('hot');
        select(svg, i);
      } else if (document.activeElement !== svg) {
        unselect(svg);
      }
    });
    document.addEventListener('mouseout', function (e) {
      var svg = plotOf(e);
      if (svg && !svg.contains(e.relatedTarget) && document.activeElement !== svg) unselect(svg);
    });
    document.addEventListener('click', function (e) {
      var svg = plotOf(e);
      if (!svg) return;
      var i = nearest(svg, e);
      if (i >= 0) open(svg, i);
    });
    document.addEventListener('focusin', function (e) {
      var svg = plotOf(e);
      if (svg) select(svg, +(svg.getAttribute('data-i') || 0));
    });
    document.addEventListener('focusout', function (e) {
      var svg = plotOf(e);
      if (svg) unselect(svg);
    });
    document.addEventListener('keydown', function (e) {
      var svg = plotOf(e);
      var pts = svg && pointsOf(svg);
      if (!pts) return;
      var i = +(svg.getAttribute('data-i') || 0), j = i;
      switch (e.key) {
        case 'ArrowRight': case 'ArrowDown': j = Math.min(pts.ref.length - 1, i + 1); break;
        case 'ArrowLeft': case 'ArrowUp': j = Math.max(0, i - 1); break;
        case 'Home': j = 0; break;
        case 'End': j = pts.ref.length - 1; break;
        case 'Enter': open(svg, i); return;
        case 'Escape': unselect(svg); return;
        default: return;
      }
      e.preventDefault();
      select(svg, j);
    });
  }

  // The top page's hardware filter.
  var filter = document.getElementById('hw-filter');
  if (filter) {
    filter.addEventListener('change', function () {
      var rows = document.querySelectorAll('#rows tbody tr');
      for (var k = 0; k < rows.length; k++) {
        var hw = rows[k].getAttribute('data-hw');
        rows[k].classList.toggle('hidden', filter.value !== '' && hw !== filter.value);
      }
    });
  }
})();
