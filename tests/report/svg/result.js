// Shared by the page scripts the tests add to a flame graph: they write what they saw into
// a text element with the id "result", which chromium --dump-dom prints.
function frameName(g) { return g.getElementsByTagName('title')[0].textContent.split('\n')[0]; }
function report(lines) {
  var res = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  res.setAttribute('id', 'result');
  res.textContent = '\n' + lines.join('\n') + '\n';
  document.documentElement.appendChild(res);
}
