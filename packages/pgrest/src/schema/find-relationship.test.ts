import { describe, expect, it } from 'vitest';
import { PgrstError } from '../errors/pgrst-error.js';
import { findRelationship, isToOne } from './find-relationship.js';
import { qualifiedKey, type Cardinality, type Relationship, type SchemaCache } from './schema-types.js';

const qn = (name: string) => ({ schema: 'api', name });

function rel(table: string, foreignTable: string, cardinality: Cardinality, foreignTableIsView = false): Relationship {
  return {
    table: qn(table),
    foreignTable: qn(foreignTable),
    isSelf: table === foreignTable,
    cardinality,
    tableIsView: false,
    foreignTableIsView,
  };
}

/** films -> directors (m2o), films <-> technical_specs (o2o), films <-> actors through roles (m2m), employees self reference. */
const relationships: Relationship[] = [
  rel('films', 'directors', { kind: 'm2o', constraint: 'films_director_id_fkey', columns: [['director_id', 'id']] }),
  rel('films', 'directors', { kind: 'm2o', constraint: 'films_producer_id_fkey', columns: [['producer_id', 'id']] }),
  rel('directors', 'films', { kind: 'o2m', constraint: 'films_director_id_fkey', columns: [['id', 'director_id']] }),
  rel('directors', 'films', { kind: 'o2m', constraint: 'films_producer_id_fkey', columns: [['id', 'producer_id']] }),
  rel('films', 'technical_specs', {
    kind: 'o2o',
    constraint: 'technical_specs_film_id_fkey',
    columns: [['id', 'film_id']],
    isParent: true,
  }),
  rel('technical_specs', 'films', {
    kind: 'o2o',
    constraint: 'technical_specs_film_id_fkey',
    columns: [['film_id', 'id']],
    isParent: false,
  }),
  rel('films', 'actors', {
    kind: 'm2m',
    junction: {
      table: qn('roles'),
      constraint1: 'roles_film_id_fkey',
      constraint2: 'roles_actor_id_fkey',
      sourceColumns: [['id', 'film_id']],
      targetColumns: [['id', 'actor_id']],
    },
  }),
  rel('films', 'roles', { kind: 'o2m', constraint: 'roles_film_id_fkey', columns: [['id', 'film_id']] }),
  rel('employees', 'employees', {
    kind: 'm2o',
    constraint: 'employees_manager_id_fkey',
    columns: [['manager_id', 'id']],
  }),
  rel('employees', 'employees', {
    kind: 'o2m',
    constraint: 'employees_manager_id_fkey',
    columns: [['id', 'manager_id']],
  }),
];

const cache: SchemaCache = {
  schemas: ['api'],
  tables: new Map(),
  routines: new Map(),
  types: new Map(),
  timezones: new Set(),
  relationships: new Map(),
};
for (const relationship of relationships) {
  const key = qualifiedKey(relationship.table);
  cache.relationships.set(key, [...(cache.relationships.get(key) ?? []), relationship]);
}

function errorOf(run: () => unknown): PgrstError {
  try {
    run();
  } catch (error) {
    if (error instanceof PgrstError) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('findRelationship', () => {
  it('finds many-to-one by FK column or constraint, and resolves ambiguity with a hint', () => {
    expect(findRelationship(cache, 'api', 'films', 'director_id', undefined).cardinality).toMatchObject({
      constraint: 'films_director_id_fkey',
    });
    expect(findRelationship(cache, 'api', 'films', 'films_producer_id_fkey', undefined).cardinality).toMatchObject({
      kind: 'm2o',
    });
    expect(findRelationship(cache, 'api', 'films', 'directors', 'films_producer_id_fkey').cardinality).toMatchObject({
      columns: [['producer_id', 'id']],
    });
    expect(findRelationship(cache, 'api', 'films', 'directors', 'director_id').cardinality).toMatchObject({
      constraint: 'films_director_id_fkey',
    });
  });

  it('answers PGRST201 with candidates and a hint when ambiguous', () => {
    const error = errorOf(() => findRelationship(cache, 'api', 'films', 'directors', undefined));
    expect(error.status).toBe(300);
    expect(error.toBody()).toEqual({
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'films' and 'directors'",
      details: [
        {
          cardinality: 'many-to-one',
          embedding: 'films with directors',
          relationship: 'films_director_id_fkey using films(director_id) and directors(id)',
        },
        {
          cardinality: 'many-to-one',
          embedding: 'films with directors',
          relationship: 'films_producer_id_fkey using films(producer_id) and directors(id)',
        },
      ],
      hint: "Try changing 'directors' to one of the following: 'directors!films_director_id_fkey', 'directors!films_producer_id_fkey'. Find the desired relationship in the 'details' key.",
    });
  });

  it('finds one-to-one in both directions as to-one', () => {
    expect(isToOne(findRelationship(cache, 'api', 'films', 'technical_specs', undefined))).toBe(true);
    expect(isToOne(findRelationship(cache, 'api', 'technical_specs', 'films', undefined))).toBe(true);
  });

  it('finds many-to-many through the junction, also by junction hint', () => {
    const m2m = findRelationship(cache, 'api', 'films', 'actors', undefined);
    expect(m2m.cardinality.kind).toBe('m2m');
    expect(isToOne(m2m)).toBe(false);
    expect(findRelationship(cache, 'api', 'films', 'actors', 'roles').cardinality.kind).toBe('m2m');
    expect(findRelationship(cache, 'api', 'films', 'roles', undefined).cardinality.kind).toBe('o2m');
  });

  it('distinguishes the two directions of a self reference', () => {
    expect(findRelationship(cache, 'api', 'employees', 'manager_id', undefined).cardinality.kind).toBe('m2o');
    expect(findRelationship(cache, 'api', 'employees', 'employees', undefined).cardinality.kind).toBe('o2m');
    expect(findRelationship(cache, 'api', 'employees', 'employees', 'manager_id').cardinality.kind).toBe('o2m');
  });

  it('answers PGRST200 with a close-name suggestion', () => {
    const child = errorOf(() => findRelationship(cache, 'api', 'films', 'actor', undefined));
    expect(child.toBody()).toEqual({
      code: 'PGRST200',
      message: "Could not find a relationship between 'films' and 'actor' in the schema cache",
      details:
        "Searched for a foreign key relationship between 'films' and 'actor' in the schema 'api', but no matches were found.",
      hint: "Perhaps you meant 'actors' instead of 'actor'.",
    });
    const parent = errorOf(() => findRelationship(cache, 'api', 'film', 'actors', 'roles'));
    expect(parent.details).toBe(
      "Searched for a foreign key relationship between 'film' and 'actors' using the hint 'roles' in the schema 'api', but no matches were found.",
    );
    expect(parent.hint).toBe("Perhaps you meant 'films' instead of 'film'.");
  });
});
