// Runs the graph's search(PATTERN) (PATTERN set before this script) and reports what it
// returned, how many frames are painted the highlight colour, the "Matched" text, and the
// highlighted count after the search is reset. Then the keyboard's way: ctrl-F asks for
// the pattern (window.prompt, replaced before the graph's script by one that answers
// PROMPTED), and a click on "Reset Search" clears it.
(function () {
  function painted() {
    var n = 0, rs = document.getElementById('frames').getElementsByTagName('rect');
    for (var i = 0; i < rs.length; i++) n += rs[i].getAttribute('fill') === '#e600e6' ? 1 : 0;
    return n;
  }
  var out = [];
  out.push('returned\t' + search(PATTERN));
  out.push('painted\t' + painted());
  out.push('matched\t' + document.getElementById('matched').textContent);
  out.push('button\t' + document.getElementById('search').textContent);
  search('');
  out.push('reset\t' + painted() + '\t' + document.getElementById('matched').textContent);
  var ev = new KeyboardEvent('keydown', {key: 'f', ctrlKey: true, bubbles: true, cancelable: true});
  document.documentElement.dispatchEvent(ev);
  out.push('ctrl-f\t' + painted() + '\t' + document.getElementById('matched').textContent + '\t' +
           (ev.defaultPrevented ? 'kept from the browser' : 'browser search'));
  document.getElementById('search').dispatchEvent(new MouseEvent('click', {bubbles: true}));
  out.push('clicked\t' + painted() + '\t' + document.getElementById('search').textContent);
  report(out);
})();
