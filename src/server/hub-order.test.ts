/**
 * Two nodes on one database: a node's sockets get every committed entry of
 * their table once, in seq order, whichever node committed it, even when the
 * node commits (and would publish) before it has read a peer's earlier entry.
 */
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { withStores } from '../ledger/testing.js';
import { simulatedTableSettings } from '../service/table-settings.js';
import { TableService } from '../service/table-service.js';
import { buildApp } from './app.js';

/** A socket that keeps the seqs of the event frames it is sent. */
function fakeSocket(seqs: number[]): WebSocket {
  return {
    readyState: WebSocket.OPEN,
    bufferedAmount: 0,
    send(data: Buffer | string) {
      const frame = JSON.parse(data.toString()) as { type: string; seq?: number };
      if (frame.type === 'event') seqs.push(frame.seq!);
    },
    on: () => undefined,
    close: () => undefined,
  } as unknown as WebSocket;
}

withStores('hub order', (h) => {
  it("delivers a peer's earlier entry before this node's own later one, each once", async () => {
    const db = h.freshDb();
    const mine = await h.open({ db });
    const peer = new TableService({ store: await h.open({ db }) });
    const app = await buildApp({ store: mine, logger: false });
    try {
      await app.ctx.service.createTable({ ...simulatedTableSettings('T1'), bettingTimerMs: null });
      const seqs: number[] = [];
      const afterSeq = (await mine.journalHead()).lastSeq;
      const client = app.ctx.hub.join('T1', fakeSocket(seqs), {
        user: undefined,
        feed: 'all',
        raw: undefined,
        afterSeq,
      });
      app.ctx.hub.greet(client, JSON.stringify({ type: 'hello' }));
      await app.ctx.hub.resume('T1', client);
      // The peer commits first; this node has not read it when it commits its own.
      const covered = await peer.execute({ tableId: 'T1', command: { type: 'cover' } });
      const latched = await app.ctx.service.execute({
        tableId: 'T1',
        command: { type: 'fasten-latches' },
      });
      if (!covered.ok || !latched.ok) throw new Error('a command was refused');
      const expected = [...covered.events, ...latched.events].map((e) => e.seq);
      await expect.poll(() => seqs, { timeout: 5_000 }).toEqual(expected);
      // Nothing arrives twice later (the journal poll reads the same entries again).
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(seqs).toEqual(expected);
    } finally {
      await app.shutdown();
    }
  });
});
