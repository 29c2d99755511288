// Lists the scripts of the page and every frame's name as the DOM holds it (a name that
// broke out of its text would add elements or scripts instead).
(function () {
  var out = ['scripts\t' + document.getElementsByTagName('script').length];
  var gs = document.getElementById('frames').children;
  for (var i = 0; i < gs.length; i++)
    out.push('frame\t' + encodeURIComponent(frameName(gs[i])) + '\t' + gs[i].children.length);
  out.push('alerted\t' + (window.__alerted ? 'yes' : 'no'));
  report(out);
})();
