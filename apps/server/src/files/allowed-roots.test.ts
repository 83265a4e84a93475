import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedPrefix, isInside } from './allowed-roots.js';

/*
 * The path arithmetic both areas' roots rest on (logs: log-file-roots.test.ts, the catalog's
 * file scrapers: file-scraper-roots.test.ts run the checks on real files and links).
 */

describe('isInside', () => {
  it('holds the root itself and what lies below it, not a sibling whose name begins the same', () => {
    expect(isInside('/var/log', '/var/log')).toBe(true);
    expect(isInside('/var/log', '/var/log/nginx/access.log')).toBe(true);
    expect(isInside('/var/log', '/var/log/..hidden')).toBe(true);
    expect(isInside('/var/log', '/var/log2/x.log')).toBe(false);
    expect(isInside('/var/log', '/var')).toBe(false);
    expect(isInside('/var/log', '/etc/shadow')).toBe(false);
    expect(isInside('/', '/etc/shadow')).toBe(true);
  });
});

describe('fixedPrefix', () => {
  it('is the path before the first segment with glob syntax, with `..` folded', () => {
    expect(fixedPrefix('/var/log/nginx/*.log')).toBe('/var/log/nginx');
    expect(fixedPrefix('/var/log/**/app-?.log')).toBe('/var/log');
    expect(fixedPrefix('/var/log/app.log')).toBe('/var/log/app.log');
    expect(fixedPrefix('/var/log/../../etc/*')).toBe('/etc');
    expect(fixedPrefix('/var/log{,2}/x.log')).toBe('/var');
    expect(fixedPrefix('/*/shadow')).toBe('/');
    expect(fixedPrefix('{/etc,/var/log}/x')).toBe(process.cwd());
    expect(fixedPrefix('/var/log/{x,../../etc}/shadow')).toBe('/var/log');
    expect(fixedPrefix('logs/*.log')).toBe(join(process.cwd(), 'logs'));
  });
});
