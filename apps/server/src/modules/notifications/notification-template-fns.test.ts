import { describe, expect, it } from 'vitest';
import {
  defaultBody,
  defaultTitle,
  markdownToHtml,
  markdownToText,
  renderTemplate,
  templateProblem,
} from './notification-template-fns.js';

const variables = {
  check: { name: 'api <prod>', type: 'http', status: 'unhealthy' },
  canary: { name: 'web', namespace: 'default' },
  check_status: { error: 'connection refused' },
  permalink: 'http://lookout.test/health?checkId=1',
  silenceURL: 'http://lookout.test/notifications/silences/add?check_id=1',
};

describe('templates', () => {
  it('fills CEL and Go-style field paths', () => {
    expect(
      renderTemplate(
        '{{ .check.name }} is {{ check.status }} ({{ check.type == "http" ? "web" : "other" }})',
        variables,
      ),
    ).toEqual({
      text: 'api <prod> is unhealthy (web)',
      errors: [],
    });
  });

  it('renders a failing part as empty text and keeps the error', () => {
    const rendered = renderTemplate('x{{ nothing.here }}y', variables);
    expect(rendered.text).toBe('xy');
    expect(rendered.errors[0]).toContain('nothing.here');
  });

  it('finds bad templates before they are stored', () => {
    expect(templateProblem('{{ check.name }}')).toBeUndefined();
    expect(templateProblem('{{ check.name')).toBe('every {{ needs a matching }}.');
    expect(templateProblem('{{ }}')).toBe('an empty {{ }}.');
    expect(templateProblem('{{ check.name == }}')).toContain('is not a valid expression');
  });

  it('has default titles and bodies per event', () => {
    expect(renderTemplate(defaultTitle('check.failed'), variables).text).toBe('Check api <prod> has failed');
    expect(renderTemplate(defaultTitle('check.passed'), variables).text).toBe('Check api <prod> has passed');
    const body = renderTemplate(defaultBody('check.failed'), variables).text;
    expect(body).toContain('**Canary**: default/web');
    expect(body).toContain('connection refused');
    expect(body).toContain('[Silence](http://lookout.test/notifications/silences/add?check_id=1)');
  });

  it('has default titles and bodies for component and catalog events', () => {
    const scope = {
      component: { name: 'payments', type: 'Service', status: 'unhealthy', health: 'unhealthy', description: null },
      config: { name: 'web-1', type: 'Kubernetes::Pod', status: 'Running', health: 'warning', description: 'pod' },
      permalink: 'http://lookout.test/x',
      silenceURL: 'http://lookout.test/notifications/silences/add?config_id=2',
    };
    expect(renderTemplate(defaultTitle('component.unhealthy'), scope).text).toBe('Component payments is unhealthy');
    expect(renderTemplate(defaultTitle('config.warning'), scope).text).toBe('Kubernetes::Pod web-1 is warning');
    expect(renderTemplate(defaultTitle('config.created'), scope).text).toBe('Kubernetes::Pod web-1 was created');
    expect(renderTemplate(defaultTitle('config.deleted'), scope).text).toBe('Kubernetes::Pod web-1 was deleted');
    const component = renderTemplate(defaultBody('component.unhealthy'), scope);
    expect(component.errors).toEqual([]);
    expect(component.text).toContain('**Type**: Service');
    expect(component.text).toContain('[View component](http://lookout.test/x)');
    const config = renderTemplate(defaultBody('config.updated'), scope).text;
    expect(config).toContain('**Health**: warning');
    expect(config).toContain('[Silence](http://lookout.test/notifications/silences/add?config_id=2)');
  });

  it('turns Markdown into escaped HTML and plain text', () => {
    const markdown = '# Down\n**api <prod>** is *down*\n\n- one\n- [two](http://x.test/a)\n\n`code`';
    expect(markdownToHtml(markdown)).toBe(
      '<h1>Down</h1>\n<p><strong>api &lt;prod&gt;</strong> is <em>down</em></p>\n<ul><li>one</li><li><a href="http://x.test/a">two</a></li></ul>\n<p><code>code</code></p>',
    );
    expect(markdownToText('**a** [b](http://x.test)')).toBe('a b (http://x.test)');
  });
});
