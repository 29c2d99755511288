// Where the browser drew the head of the graph: whether the subtitle meets either control
// (in its widest state: "Reset Zoom" shown, the search button reading "Reset Search"), the
// subtitle's box, its line count, the top of the highest frame and the page's width; the
// title's box.
(function () {
  var unzoom = document.getElementById('unzoom'), search = document.getElementById('search');
  unzoom.classList.remove('hide');
  search.textContent = 'Reset Search';
  var sub = document.getElementById('sub');
  function box(e) { var b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; }
  function meet(a, b) { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]; }
  var s = box(sub), z = box(unzoom), q = box(search);
  var rs = document.getElementById('frames').getElementsByTagName('rect'), top = 1e9;
  for (var i = 0; i < rs.length; i++) top = Math.min(top, +rs[i].getAttribute('y'));
  report(['meets\t' + (meet(s, z) ? 1 : 0) + '\t' + (meet(s, q) ? 1 : 0),
          'sub\t' + s.join('\t') + '\t' + Math.max(1, sub.getElementsByTagName('tspan').length) +
              '\t' + top + '\t' + document.documentElement.getAttribute('width'),
          'title\t' + box(document.getElementById('title')).join('\t')]);
})();
