import type { Clock } from '../base';

/** What became of a forward's connections so far. */
export interface ForwardCounts {
  /** Ended normally: the client finished (it ended its side after the pod answered), or the stream closed cleanly. */
  readonly served: number;
  /** Still in use by the client when their pod went away (deleted, or switched away from within the grace). */
  readonly interrupted: number;
  /** Given up after waiting for a pod (none could take them). */
  readonly refused: number;
  /** Ended with an error while their pod stayed: the pod refused the port, the stream broke. */
  readonly failed: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly switches: number;
}

/** Why the pod new connections go to does not take them: the last connection to it failed before it answered. */
export interface PodTrouble {
  readonly uid: string;
  /** `connection refused by pod web-1 port 80` */
  readonly reason: string;
}

/**
 * The counts of a forward's connections, each connection counted once, when its fate is known:
 * a connection the client finished is served (never cut later, whatever then closes its stream);
 * a connection in use that ends with an error is failed, and moves to interrupted when its pod is
 * switched away within `graceMs` (the server ends a deleted pod's streams before the watch tells).
 * It also keeps whether the pod's port takes connections: the last outcome of a connection to it.
 */
export class ConnectionTally {
  private readonly c = { served: 0, interrupted: 0, refused: 0, failed: 0, bytesIn: 0, bytesOut: 0, switches: 0 };
  /** In-flight failures per pod uid (clock ms), moved to `interrupted` when that pod is switched away. */
  private readonly recentFailures: Array<{ uid: string; at: number }> = [];
  private podTrouble: PodTrouble | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly graceMs: number,
  ) {}

  get counts(): ForwardCounts {
    return { ...this.c };
  }

  /** The trouble of pod `uid`, if its last connection failed before it answered. */
  troubleOf(uid: string | undefined): PodTrouble | undefined {
    return uid !== undefined && this.podTrouble?.uid === uid ? this.podTrouble : undefined;
  }

  bytes(inbound: number, outbound: number): void {
    this.c.bytesIn += inbound;
    this.c.bytesOut += outbound;
  }

  served(): void {
    this.c.served++;
  }

  /** Cut by the forward because its pod went away. */
  interrupted(): void {
    this.c.interrupted++;
  }

  refused(): void {
    this.c.refused++;
  }

  /** A connection in use ended with an error on pod `uid`. */
  failedInFlight(uid: string): void {
    this.c.failed++;
    this.recentFailures.push({ uid, at: this.clock.now() });
  }

  /** A connection to pod `uid` failed before the pod answered: the pod's port does not take connections. */
  failedAtPod(uid: string, reason: string): void {
    this.c.failed++;
    this.podTrouble = { uid, reason };
  }

  /** Pod `uid` answered a connection: its port takes connections. */
  answered(uid: string): void {
    if (this.podTrouble?.uid === uid) this.podTrouble = undefined;
  }

  /** Pod `uid` no longer takes new connections: its in-flight failures of the last grace become cuts. Returns how many. */
  switchedFrom(uid: string): number {
    this.c.switches++;
    const now = this.clock.now();
    let moved = 0;
    for (let i = this.recentFailures.length - 1; i >= 0; i--) {
      const f = this.recentFailures[i];
      if (now - f.at > this.graceMs) this.recentFailures.splice(i, 1);
      else if (f.uid === uid) {
        this.recentFailures.splice(i, 1);
        this.c.failed--;
        this.c.interrupted++;
        moved++;
      }
    }
    return moved;
  }
}
