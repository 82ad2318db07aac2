/**
 * Text lines of PP-OCR's detection mask, cut from the picture: the steps of @gutenye/ocr-common's
 * splitIntoLineImages (same OpenCV calls, same box geometry, so the same crops) with every OpenCV
 * matrix freed. The library never frees a line's crop in OpenCV's WebAssembly heap (1 GB at most): a
 * helper died after ~3 700 crops of 624 × 114 pixels, ~14 000 typical subtitle lines (~1 h of a busy
 * video). It also copied the whole picture into OpenCV once per line; here once per picture.
 */
import { createRequire } from 'node:module';
import type { RgbaImage } from './ppocr.ts';

interface CvMat {
  data: Uint8Array;
  rows: number;
  cols: number;
  delete(): void;
}
interface CvRotatedRect {
  center: { x: number; y: number };
  size: { width: number; height: number };
  angle: number;
}
export interface LineCv {
  Mat: { new (): CvMat; new (rows: number, cols: number, type: number): CvMat };
  MatVector: new () => { size(): number; get(i: number): CvMat; delete(): void };
  Size: new (w: number, h: number) => unknown;
  Point: new (x: number, y: number) => unknown;
  Scalar: new () => unknown;
  CV_8UC1: number;
  CV_32SC2: number;
  CV_32FC2: number;
  RETR_LIST: number;
  CHAIN_APPROX_SIMPLE: number;
  INTER_CUBIC: number;
  BORDER_REPLICATE: number;
  matFromArray(rows: number, cols: number, type: number, values: number[]): CvMat;
  matFromImageData(img: { data: Uint8Array; width: number; height: number }): CvMat;
  findContours(src: CvMat, contours: unknown, hierarchy: CvMat, mode: number, method: number): void;
  minAreaRect(points: CvMat): CvRotatedRect;
  getPerspectiveTransform(src: CvMat, dst: CvMat): CvMat;
  getRotationMatrix2D(center: unknown, angle: number, scale: number): CvMat;
  warpPerspective(...args: unknown[]): void;
  warpAffine(...args: unknown[]): void;
}

interface Clipper {
  ClipperOffset: new () => {
    AddPath(path: { X: number; Y: number }[], join: number, end: number): void;
    Execute(out: { X: number; Y: number }[][], delta: number): void;
  };
  JoinType: { jtRound: number };
  EndType: { etClosedPolygon: number };
}
// The library's polygon offsetting (a dependency of @gutenye/ocr-common, without type declarations).
const clipper = createRequire(import.meta.url)('js-clipper') as Clipper;

type Point = number[];

export interface LineCrop {
  /** The four corners in the picture, clockwise from the top left. */
  box: Point[];
  image: RgbaImage;
}

const MIN_SIDE = 3;
const UNCLIP_RATIO = 1.5;

const norm = (a: Point, b: Point) => Math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2);
const int = (n: number) => (n > 0 ? Math.floor(n) : Math.ceil(n));

/**
 * Each line of `mask` (w × h bytes, 255 = text) with its crop from `source`, whose size is a
 * multiple of the mask's (boxes are scaled up to it).
 */
export function cutLines(cv: LineCv, mask: Uint8Array, w: number, h: number, source: RgbaImage): LineCrop[] {
  const gray = new cv.Mat(h, w, cv.CV_8UC1);
  gray.data.set(mask);
  const contours = new cv.MatVector();
  const hierarchy = new cv.Mat();
  cv.findContours(gray, contours, hierarchy, cv.RETR_LIST, cv.CHAIN_APPROX_SIMPLE);
  gray.delete();
  hierarchy.delete();
  const picture = cv.matFromImageData(source);
  const lines: LineCrop[] = [];
  try {
    for (let i = 0; i < contours.size(); i++) {
      const contour = contours.get(i);
      const first = miniBox(cv, contour);
      contour.delete();
      if (first.side < MIN_SIDE) continue;
      const unclipped = unclip(first.points);
      const outline = cv.matFromArray(unclipped.length / 2, 1, cv.CV_32SC2, unclipped);
      const { points: box, side } = miniBox(cv, outline);
      outline.delete();
      if (side < MIN_SIDE + 2) continue;
      const rx = source.width / w;
      const ry = source.height / h;
      for (const p of box) {
        p[0] *= rx;
        p[1] *= ry;
      }
      // As the library does: the ordered corners are the same arrays, so this rounds `box` too.
      const ordered = clockwise(box);
      for (const p of ordered) {
        p[0] = Math.max(0, Math.min(Math.round(p[0]), source.width));
        p[1] = Math.max(0, Math.min(Math.round(p[1]), source.height));
      }
      if (int(norm(ordered[0], ordered[1])) <= 3 || int(norm(ordered[0], ordered[3])) <= 3) continue;
      lines.push({ box, image: cropRotated(cv, picture, box) });
    }
  } finally {
    picture.delete();
    contours.delete();
  }
  return lines;
}

/** The smallest rotated rectangle around `points`: corners from the left, and its shorter side. */
function miniBox(cv: LineCv, points: CvMat): { points: Point[]; side: number } {
  const r = cv.minAreaRect(points);
  const p = cornersOf(r).sort((a, b) => a[0] - b[0]);
  const [i1, i4] = p[1][1] > p[0][1] ? [0, 1] : [1, 0];
  const [i2, i3] = p[3][1] > p[2][1] ? [2, 3] : [3, 2];
  return { points: [p[i1], p[i2], p[i3], p[i4]], side: Math.min(r.size.height, r.size.width) };
}

function cornersOf({ center, size, angle }: CvRotatedRect): Point[] {
  const t = (angle * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const dx = size.width * 0.5;
  const dy = size.height * 0.5;
  return [
    [center.x - dx * cos + dy * sin, center.y - dx * sin - dy * cos],
    [center.x + dx * cos + dy * sin, center.y + dx * sin - dy * cos],
    [center.x + dx * cos - dy * sin, center.y + dx * sin + dy * cos],
    [center.x - dx * cos - dy * sin, center.y - dx * sin + dy * cos],
  ];
}

/** The box grown by area × 1.5 / perimeter (round corners), as flat x, y integers. */
function unclip(box: Point[]): number[] {
  let area = 0;
  let length = 0;
  for (let i = 0, prev = box[box.length - 1]; i < box.length; prev = box[i], i++) {
    area += prev[1] * box[i][0] - prev[0] * box[i][1];
    length += Math.hypot(prev[0] - box[i][0], prev[1] - box[i][1]);
  }
  const distance = (Math.abs(area / 2) * UNCLIP_RATIO) / length;
  const offset = new clipper.ClipperOffset();
  offset.AddPath(
    box.map(([X, Y]) => ({ X, Y })),
    clipper.JoinType.jtRound,
    clipper.EndType.etClosedPolygon,
  );
  const grown: { X: number; Y: number }[][] = [];
  offset.Execute(grown, distance);
  return (grown[0] ?? []).flatMap((p) => [p.X, p.Y]);
}

function clockwise(pts: Point[]): Point[] {
  const s = pts.map((p) => p[0] + p[1]);
  const first = pts[s.indexOf(Math.min(...s))];
  const third = pts[s.indexOf(Math.max(...s))];
  const rest = pts.filter((p) => p !== first && p !== third);
  const diff = rest[1].map((e, i) => e - rest[0][i]);
  return [first, rest[diff.indexOf(Math.min(...diff))], third, rest[diff.indexOf(Math.max(...diff))]];
}

/** The box straightened out of the picture (bicubic), turned upright when it is tall and narrow. */
function cropRotated(cv: LineCv, picture: CvMat, points: Point[]): RgbaImage {
  const width = int(Math.max(norm(points[0], points[1]), norm(points[2], points[3])));
  const height = int(Math.max(norm(points[0], points[3]), norm(points[1], points[2])));
  const from = cv.matFromArray(4, 1, cv.CV_32FC2, points.flat());
  const to = cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width, 0, width, height, 0, height]);
  const m = cv.getPerspectiveTransform(from, to);
  const straight = new cv.Mat();
  const mats = [from, to, m, straight];
  try {
    cv.warpPerspective(
      picture,
      straight,
      m,
      new cv.Size(width, height),
      cv.INTER_CUBIC,
      cv.BORDER_REPLICATE,
      new cv.Scalar(),
    );
    let out = straight;
    if (straight.rows / straight.cols >= 1.5) {
      out = new cv.Mat();
      mats.push(out);
      const turn = cv.getRotationMatrix2D(new cv.Point(straight.cols / 2, straight.cols / 2), 90, 1);
      mats.push(turn);
      cv.warpAffine(
        straight,
        out,
        turn,
        new cv.Size(straight.rows, straight.cols),
        cv.INTER_CUBIC,
        cv.BORDER_REPLICATE,
        new cv.Scalar(),
      );
    }
    return { data: out.data.slice(), width: out.cols, height: out.rows };
  } finally {
    for (const mat of mats) mat.delete();
  }
}
