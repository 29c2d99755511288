// Clicks, in turn, the widest frame named each of TARGETS (set before this script; "" clicks
// "Reset Zoom"), and after each click lists every frame:
//   frame STEP NAME X WIDTH shown|hidden par|- LABEL
// and whether "Reset Zoom" shows: unzoom STEP DISPLAY.
(function () {
  var out = [], gs = document.getElementById('frames').children;
  function width(g) { return +g.getElementsByTagName('rect')[0].getAttribute('width'); }
  for (var step = 0; step < TARGETS.length; step++) {
    var target = null;
    if (TARGETS[step] === '') {
      target = document.getElementById('unzoom');
    } else {
      for (var i = 0; i < gs.length; i++)
        if (frameName(gs[i]) === TARGETS[step] && (!target || width(gs[i]) > width(target))) target = gs[i];
    }
    if (!target) {
      out.push('error\t' + step + '\tno frame named ' + TARGETS[step]);
      break;
    }
    // On the rectangle, as a user's click would be; it bubbles up to the frames' handler.
    var at = TARGETS[step] === '' ? target : target.getElementsByTagName('rect')[0];
    at.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    for (var k = 0; k < gs.length; k++) {
      var g = gs[k], r = g.getElementsByTagName('rect')[0], t = g.getElementsByTagName('text')[0];
      out.push(['frame', step, frameName(g), r.getAttribute('x'), r.getAttribute('width'),
                getComputedStyle(g).display === 'none' ? 'hidden' : 'shown',
                g.classList.contains('par') ? 'par' : '-', t ? t.textContent : ''].join('\t'));
    }
    out.push('unzoom\t' + step + '\t' + getComputedStyle(document.getElementById('unzoom')).display);
  }
  report(out);
})();
