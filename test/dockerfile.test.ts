import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

// The image the Helm chart runs (deploy/helm/lookout) cannot be built in CI (no container
// runtime), so these checks keep the Dockerfile in step with the repository: every workspace is
// installed and its build output copied, and the runtime files the server reads are there.
const root = new URL('..', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
const rootPackage = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { workspaces: string[] };
const chart = parse(readFileSync(new URL('deploy/helm/lookout/Chart.yaml', root), 'utf8')) as { appVersion: string };
const serverPackage = JSON.parse(readFileSync(new URL('apps/server/package.json', root), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};

describe('Dockerfile', () => {
  it('installs every workspace and copies its build into the image', () => {
    for (const workspace of rootPackage.workspaces) {
      expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
      expect(dockerfile, workspace).toContain(`COPY --from=build /src/${workspace}/package.json ${workspace}/`);
      expect(dockerfile, workspace).toContain(`COPY --from=build /src/${workspace}/dist ${workspace}/dist`);
    }
  });

  it("copies the migrations and runs the server's CLI as a non-root user with the chart's data directory", () => {
    expect(dockerfile).toContain('COPY --from=build /src/apps/server/migrations apps/server/migrations');
    expect(serverPackage.bin.lookout).toBe('./dist/cli.js');
    expect(dockerfile).toContain('ENTRYPOINT ["node", "apps/server/dist/cli.js"]');
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('LOOKOUT_DATA_DIR=/data');
  });

  it("is tagged with the chart's appVersion, the server's version", () => {
    expect(chart.appVersion).toBe(serverPackage.version);
  });
});
