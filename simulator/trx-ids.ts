/**
 * Which row carries which trx_id, so that the upstream's order is a property of the records alone:
 * date_received ascending, then trx_id ascending (desc exactly reversed). A client that copies
 * records can then sort them into the upstream's order without asking it again.
 *
 * Rows are sorted by date_received, and rows received in the same millisecond (a handful at most:
 * two messages drawn on the same millisecond, campaigns starting on `…:00.000`) sit in generation
 * order. Each row's own id is TrxCodec.encode(day, position); within a group of rows sharing one
 * millisecond the group's ids are handed out in sorted order instead — the group's k-th row carries
 * the k-th smallest of the group's ids. The row order is untouched, so range search and paging stay
 * as fast as they are; only a row with a twin costs a few more encodes. The group depends only on
 * its day's stream (a group is entirely inside or outside the window, being one instant), so ids
 * stay the same across restarts with the same seed and volume.
 */
import { dayPosition, rowAtPosition, type Generated } from './generate';
import { TrxCodec } from './trx-codec';

export class TrxIds {
  private readonly generated: Generated;
  private readonly codec: TrxCodec;

  constructor(generated: Generated) {
    this.generated = generated;
    this.codec = new TrxCodec(generated.seed);
  }

  idAt(i: number): string {
    const [lo, hi] = this.tieGroup(i);
    return hi - lo === 1 ? this.ownId(i) : this.groupIds(lo, hi)[i - lo]!;
  }

  /** The row carrying this id (whether or not it is visible yet), or undefined. */
  rowOf(id: string): number | undefined {
    const decoded = this.codec.decode(id);
    if (!decoded) return undefined;
    const own = rowAtPosition(this.generated, decoded.day, decoded.position);
    if (own === undefined) return undefined;
    const [lo, hi] = this.tieGroup(own);
    return hi - lo === 1 ? own : lo + this.groupIds(lo, hi).indexOf(id);
  }

  /** The id the position of row i encodes, before the tie rule. */
  private ownId(i: number): string {
    const { day, position } = dayPosition(this.generated, i);
    return this.codec.encode(day, position);
  }

  /** [lo, hi): the rows received in the same millisecond as row i. */
  private tieGroup(i: number): [number, number] {
    const r = this.generated.columns.received;
    const n = this.generated.columns.n;
    const t = r[i]!;
    let lo = i;
    let hi = i + 1;
    while (lo > 0 && r[lo - 1] === t) lo--;
    while (hi < n && r[hi] === t) hi++;
    return [lo, hi];
  }

  /** The group's ids in ascending order: ids are 32 lowercase hex, so string order is the order. */
  private groupIds(lo: number, hi: number): string[] {
    const ids: string[] = [];
    for (let j = lo; j < hi; j++) ids.push(this.ownId(j));
    return ids.sort();
  }
}
