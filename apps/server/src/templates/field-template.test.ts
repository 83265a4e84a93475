import { describe, expect, it } from 'vitest';
import { FieldTemplateError, hasPlaceholder, renderFieldTemplate, valueAtPath } from './field-template.js';

const doc = { kind: 'Deployment', name: 'x', metadata: { name: 'web', labels: { app: 'y', tier: ' Front ' } } };

describe('field templates', () => {
  it('fill field paths, with missing fields as empty text and objects as JSON', () => {
    expect(renderFieldTemplate('{{ .name }}-{{.metadata.labels.app}}-{{ .missing }}', doc)).toBe('x-y-');
    expect(renderFieldTemplate('{{ .metadata.labels }}', { metadata: { labels: { a: 1 } } })).toBe('{"a":1}');
    expect(renderFieldTemplate('{{ . }}', 'itself')).toBe('itself');
    expect(renderFieldTemplate('plain', doc)).toBe('plain');
  });

  it('apply lower, upper and trim pipes, and accept Go trim markers', () => {
    expect(renderFieldTemplate('{{ .kind | lower }}/{{- .metadata.labels.tier | trim | upper -}}', doc)).toBe(
      'deployment/FRONT',
    );
  });

  it('refuse what is no field path, and unknown pipes, naming the template', () => {
    expect(() => renderFieldTemplate('{{ index . "a" }}', doc)).toThrow(FieldTemplateError);
    expect(() => renderFieldTemplate('{{ index . "a" }}', doc)).toThrow(
      `template '{{ index . "a" }}': 'index . "a"' is not a field path`,
    );
    expect(() => renderFieldTemplate('{{ .kind | title }}', doc)).toThrow("unknown function 'title'");
  });

  it('find placeholders and values at paths', () => {
    expect(hasPlaceholder('a {{ .b }}')).toBe(true);
    expect(hasPlaceholder('a {{ .b }}')).toBe(true);
    expect(hasPlaceholder('no placeholder')).toBe(false);
    expect(valueAtPath(doc, '.metadata.name')).toBe('web');
    expect(valueAtPath(doc, '.')).toBe(doc);
    expect(valueAtPath(doc, '.name.deeper')).toBeUndefined();
  });
});
