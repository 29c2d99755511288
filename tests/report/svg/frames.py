# Reads a flame graph SVG with an XML parser (so a file that is not well-formed fails) and
# prints what the tests check, one tab-separated line per item:
#   title TEXT / sub TEXT / size W H / frame NAME SAMPLES X Y WIDTH FILL LABEL ABOUT
# Names cannot hold tabs or newlines: the tool escapes control characters.
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
root = ET.parse(sys.argv[1]).getroot()
if root.tag != NS + 'svg':
    sys.exit('not an svg root: ' + root.tag)
out = ['size\t%s\t%s' % (root.get('width'), root.get('height'))]
for t in root.iter(NS + 'text'):
    if t.get('id') in ('title', 'sub'):
        # A subtitle too long for its line is a <tspan> per line: joined by spaces.
        lines = [s.text or '' for s in t.findall(NS + 'tspan')] or [t.text or '']
        out.append('%s\t%s' % (t.get('id'), ' '.join(lines)))
frames = [g for g in root.iter(NS + 'g') if g.get('id') == 'frames']
if len(frames) != 1:
    sys.exit('no frames group')
for g in frames[0]:
    title = g.find(NS + 'title').text.split('\n')
    rect = g.find(NS + 'rect')
    label = g.find(NS + 'text')
    samples = title[1].split(' ')[0]
    out.append('\t'.join(['frame', title[0], samples, rect.get('x'), rect.get('y'),
                          rect.get('width'), rect.get('fill'),
                          '' if label is None else (label.text or ''),
                          title[2] if len(title) > 2 else '']))
sys.stdout.write('\n'.join(out) + '\n')
