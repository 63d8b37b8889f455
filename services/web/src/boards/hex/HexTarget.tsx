// A hex the player may act on: a focusable button over the map (click, Enter or Space), outlined, with
// its action in words for screen readers. Every board's clickable hexes are these.
import type { JSX } from "preact";
import { hexPoints, type Orientation, type Point } from "./geometry";

interface Props {
  id: string;
  at: Point;
  size: number;
  orientation: Orientation;
  label: string;
  selected: boolean;
  onPick: (id: string) => void;
}

export function HexTarget({ id, at, size, orientation, label, selected, onPick }: Props) {
  const key = (event: JSX.TargetedKeyboardEvent<SVGGElement>) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onPick(id);
    }
  };
  // `tabindex` in lower case: SVG attributes are case-sensitive, and `tabIndex` left hexes out of the tab order.
  return (
    <g class={selected ? "target selected" : "target"} role="button" tabindex={0} data-target={id}
       aria-label={label} aria-pressed={selected} onClick={() => onPick(id)} onKeyDown={key}>
      <polygon points={hexPoints(at, size * 0.93, orientation)} />
    </g>
  );
}
