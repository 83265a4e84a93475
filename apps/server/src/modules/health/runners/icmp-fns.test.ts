import { describe, expect, it } from 'vitest';
import { parsePingOutput, pingArguments, pingErrorReason, pingFailures } from './icmp-fns.js';

const OK = `PING localhost (127.0.0.1) 56(84) bytes of data.
64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.147 ms
64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.037 ms

--- localhost ping statistics ---
2 packets transmitted, 2 received, 0% packet loss, time 205ms
rtt min/avg/max/mdev = 0.037/0.092/0.147/0.055 ms
`;

const LOST = `PING 240.0.0.1 (240.0.0.1) 56(84) bytes of data.

--- 240.0.0.1 ping statistics ---
3 packets transmitted, 0 received, +1 errors, 100% packet loss, time 0ms
`;

describe('icmp-fns', () => {
  it('parses iputils ping statistics', () => {
    expect(parsePingOutput(OK)).toEqual({
      address: '127.0.0.1',
      transmitted: 2,
      received: 2,
      lossPercent: 0,
      rtt: { min: 0.037, avg: 0.092, max: 0.147 },
    });
    expect(parsePingOutput(LOST)).toMatchObject({ transmitted: 3, received: 0, lossPercent: 100, rtt: undefined });
    expect(parsePingOutput('ping: nowhere: Name or service not known')).toBeUndefined();
  });

  it('parses BusyBox ping statistics', () => {
    const busybox = `PING 10.0.0.1 (10.0.0.1): 56 data bytes
--- 10.0.0.1 ping statistics ---
3 packets transmitted, 3 packets received, 0% packet loss
round-trip min/avg/max = 1.1/2.2/3.3 ms`;
    expect(parsePingOutput(busybox)).toMatchObject({ received: 3, rtt: { min: 1.1, avg: 2.2, max: 3.3 } });
  });

  it('fails on packet loss above the threshold and on slow round trips', () => {
    const summary = parsePingOutput(LOST);
    expect(summary && pingFailures(summary, {})).toEqual(['packet loss 100%, threshold 0% (0/3 replies)']);
    const slow = {
      address: undefined,
      transmitted: 3,
      received: 3,
      lossPercent: 0,
      rtt: { min: 700, avg: 812, max: 900 },
    };
    expect(pingFailures(slow, { thresholdMillis: 500 })).toEqual(['average round trip 812 ms, threshold 500 ms']);
    expect(pingFailures({ ...slow, lossPercent: 33 }, { packetLossThreshold: 50 })).toEqual([]);
  });

  it('keeps ping inside the check budget', () => {
    expect(pingArguments('127.0.0.1', 3, 10_000)).toEqual([
      '-n',
      '-c',
      '3',
      '-i',
      '0.2',
      '-W',
      '2',
      '-w',
      '3',
      '127.0.0.1',
    ]);
    expect(pingArguments('127.0.0.1', 50, 5_000)).toContain('4');
  });

  it('explains ping errors', () => {
    expect(pingErrorReason('nowhere.invalid', 'ping: nowhere.invalid: Name or service not known')).toBe(
      'could not resolve host nowhere.invalid',
    );
  });
});
