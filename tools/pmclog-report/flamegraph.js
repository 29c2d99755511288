var HL = '#e600e6';
var framesG = document.getElementById('frames'), details = document.getElementById('details'),
    unzoomT = document.getElementById('unzoom'), searchT = document.getElementById('search'),
    matchedT = document.getElementById('matched');
var fr = [], zoomed = null, searching = null;
(function () {
  var gs = framesG.children;
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i], r = g.getElementsByTagName('rect')[0];
    var lines = g.getElementsByTagName('title')[0].textContent.split('\n');
    var m = /^([0-9]+) samples/.exec(lines[1] || ''), y = +r.getAttribute('y');
    var f = {g: g, r: r, name: lines[0], n: m ? +m[1] : 0, fill: r.getAttribute('fill'),
             x: +r.getAttribute('x'), w: +r.getAttribute('width'),
             d: Math.round(IC ? (y - Y0) / FH : (Y0 - y) / FH)};
    g.__f = f;
    f.i = fr.length;
    fr.push(f);
  }
  // Each frame's caller (p) and the end of its subtree (e, one past its last callee).
  var open = [];
  for (var k = 0; k <= fr.length; k++) {
    var d = k < fr.length ? fr[k].d : -1;
    while (open.length && open[open.length - 1].d >= d) open.pop().e = k;
    if (k < fr.length) { fr[k].p = open.length ? open[open.length - 1] : null; open.push(fr[k]); }
  }
})();
function frameOf(n) {
  for (; n && n !== framesG; n = n.parentNode) if (n.__f) return n.__f;
  return null;
}
function label(name, w) {
  var fit = Math.floor(w / (FS * FW));
  if (fit < 3) return '';
  var cps = Array.from(name);
  return cps.length <= fit ? name : cps.slice(0, fit - 2).join('') + '..';
}
function place(f, x, w) {
  f.r.setAttribute('x', x.toFixed(2));
  f.r.setAttribute('width', w.toFixed(2));
  var s = label(f.name, w), t = f.g.getElementsByTagName('text')[0];
  if (!t && s) {
    t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    t.setAttribute('y', +f.r.getAttribute('y') + FH - 5.5);
    f.g.appendChild(t);
  }
  if (t) {
    t.setAttribute('x', (x + 3).toFixed(2));
    t.textContent = s;
  }
}
function show(f, on) { f.g.classList.toggle('hide', !on); }
// Click: the frame takes the whole width, its callees scale with it, its callers stay
// full width (faded), everything else is hidden.
function zoom(z) {
  var s = (W - 2 * PAD) / z.w, anc = {};
  for (var a = z.p; a; a = a.p) anc[a.i] = true;
  for (var i = 0; i < fr.length; i++) {
    var f = fr[i];
    if (anc[i]) {
      show(f, true);
      f.g.classList.add('par');
      place(f, PAD, W - 2 * PAD);
    } else if (i >= z.i && i < z.e) {
      show(f, true);
      f.g.classList.remove('par');
      place(f, PAD + (f.x - z.x) * s, f.w * s);
    } else {
      show(f, false);
    }
  }
  zoomed = z;
  unzoomT.classList.remove('hide');
}
function unzoom() {
  for (var i = 0; i < fr.length; i++) {
    var f = fr[i];
    show(f, true);
    f.g.classList.remove('par');
    place(f, f.x, f.w);
  }
  zoomed = null;
  unzoomT.classList.add('hide');
}
function resetSearch() {
  for (var i = 0; i < fr.length; i++) fr[i].r.setAttribute('fill', fr[i].fill);
  searching = null;
  matchedT.textContent = '';
  searchT.textContent = 'Search';
}
// Highlights the frames whose name matches the regular expression and shows the share of
// samples under them (a match under a match counted once). Returns the frames matched.
function search(term) {
  if (term === null || term === undefined || term === '') { resetSearch(); return 0; }
  var re;
  try { re = new RegExp(term); } catch (e) { matchedT.textContent = 'Bad pattern'; return -1; }
  var hits = 0, n = 0, under = 0;  // under: the end of the subtree of the last counted hit
  for (var i = 0; i < fr.length; i++) {
    var f = fr[i], m = re.test(f.name);
    f.r.setAttribute('fill', m ? HL : f.fill);
    if (!m) continue;
    ++hits;
    if (i >= under) { n += f.n; under = f.e; }
  }
  searching = term;
  matchedT.textContent = 'Matched: ' + (T ? 100 * n / T : 0).toFixed(2) + '% (' + hits +
      (hits === 1 ? ' frame)' : ' frames)');
  searchT.textContent = 'Reset Search';
  return hits;
}
function askSearch() {
  if (searching !== null) { resetSearch(); return; }
  var t = window.prompt('Search for a function (regular expression):', '');
  if (t !== null) search(t);
}
framesG.addEventListener('click', function (e) {
  var f = frameOf(e.target);
  if (f) zoom(f);
});
framesG.addEventListener('mouseover', function (e) {
  var f = frameOf(e.target);
  if (f) details.textContent = f.g.getElementsByTagName('title')[0].textContent.replace(/\n/g, ' | ');
});
framesG.addEventListener('mouseout', function () { details.textContent = ' '; });
unzoomT.addEventListener('click', unzoom);
searchT.addEventListener('click', askSearch);
document.addEventListener('keydown', function (e) {
  if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) { e.preventDefault(); askSearch(); }
  else if (e.key === 'Escape') { if (zoomed) unzoom(); else if (searching !== null) resetSearch(); }
});
