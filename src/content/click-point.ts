/**
 * Where a person clicks an element: the centre of its box. A link that wraps onto the next line is
 * two boxes, one at the end of a line and one at the start of the next, and the centre of the
 * rectangle around both lies on neither (on whatever sits between them): then the first box that
 * shows in the window is clicked, as a person clicks the words they see.
 */
export interface Point {
  x: number;
  y: number;
}

const centreOf = (box: DOMRect): Point => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
const holds = (box: DOMRect, { x, y }: Point) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;

/** `box`: the element's bounding box, when the caller has it already. */
export function clickPoint(element: Element, box: DOMRect = element.getBoundingClientRect()): Point {
  const centre = centreOf(box);
  const fragments = Array.from(element.getClientRects()).filter((fragment) => fragment.width > 1 && fragment.height > 1);
  if (fragments.length === 0 || fragments.some((fragment) => holds(fragment, centre))) return centre;
  const view = element.ownerDocument.defaultView;
  const inView = (point: Point) => !view || (point.x >= 0 && point.y >= 0 && point.x < view.innerWidth && point.y < view.innerHeight);
  return fragments.map(centreOf).find(inView) ?? centreOf(fragments[0]!);
}
