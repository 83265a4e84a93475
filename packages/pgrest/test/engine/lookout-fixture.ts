/**
 * A slice of the Lookout schema (people, teams, canaries, checks, components, configs,
 * incidents with hypotheses and evidences) with the relationships the web relies on:
 * FK-name disambiguation, views inheriting base-table keys, junction tables and nested
 * embeds several levels deep.
 */
export const LOOKOUT_SQL = `
create table people (id uuid primary key, name text not null, email text, avatar text);
create table teams (id uuid primary key, name text not null, icon text, source text default 'UI', created_by uuid references people(id), deleted_at timestamptz);
create table team_members (team_id uuid references teams(id), person_id uuid references people(id), primary key (team_id, person_id));
create table agents (id uuid primary key, name text not null, description text, created_by uuid references people(id), created_at timestamptz default now());
create table canaries (id uuid primary key, name text not null, namespace text, source text default 'UI', spec jsonb, deleted_at timestamptz, agent_id uuid references agents(id));
create table checks (
  id uuid primary key, canary_id uuid not null references canaries(id), agent_id uuid references agents(id),
  name text not null, icon text, status text, type text, labels jsonb default '{}', created_at timestamptz default now(), deleted_at timestamptz
);
create table components (id uuid primary key, name text not null, icon text, type text, parent_id uuid references components(id));
create table check_component_relationships (check_id uuid references checks(id), component_id uuid references components(id), primary key (check_id, component_id));
create table config_items (id uuid primary key, name text, type text, config_class text, labels jsonb, tags text[], created_at timestamptz default now(), deleted_at timestamptz, agent_id uuid references agents(id));
create view configs as select id, name, type, config_class, labels, tags, created_at, deleted_at, agent_id from config_items;
create table config_component_relationships (
  component_id uuid references components(id), config_id uuid references config_items(id), selector_id text, deleted_at timestamptz,
  primary key (component_id, config_id)
);
create table config_relationships (config_id uuid references config_items(id), related_id uuid references config_items(id), relation text, primary key (config_id, related_id));
create table incidents (
  id uuid primary key, title text not null, severity text, status text, type text,
  commander_id uuid references people(id), communicator_id uuid references people(id), created_by uuid references people(id),
  created_at timestamptz not null default now(), updated_at timestamptz
);
create table hypotheses (id uuid primary key, incident_id uuid references incidents(id), parent_id uuid references hypotheses(id), type text, title text, status text, created_by uuid references people(id), created_at timestamptz default now());
create table evidences (id uuid primary key default gen_random_uuid(), hypothesis_id uuid references hypotheses(id), component_id uuid references components(id), config_id uuid references config_items(id), description text, created_by uuid references people(id));
create table comments (id uuid primary key default gen_random_uuid(), incident_id uuid references incidents(id), hypothesis_id uuid references hypotheses(id), comment text, created_by uuid references people(id));
create table responders (id uuid primary key default gen_random_uuid(), incident_id uuid references incidents(id), team_id uuid references teams(id), person_id uuid references people(id), created_by uuid references people(id), deleted_at timestamptz);
create view incident_summary as select id, title, severity, status, type, created_by, created_at from incidents;
create view checks_with_status as select c.id, c.canary_id, c.name, c.status, c.agent_id, c.labels from checks c;
create view agents_summary as select a.id, a.name, a.created_by, a.created_at, (select count(*) from checks where agent_id = a.id) as checks_count from agents a;
create table check_statuses (check_id uuid references checks(id), time timestamptz, status boolean, duration int, message text, primary key (check_id, time));
create table properties (name text primary key, value text, created_by uuid references people(id), created_at timestamptz default now(), updated_at timestamptz);

create function related_configs_recursive(config_id uuid, max_depth int default 10, type_filter text default '')
returns setof config_items language sql stable as $$
  select ci.* from config_items ci where ci.id in (select related_id from config_relationships r where r.config_id = $1)
  and ($3 = '' or ci.type = $3)
$$;
create function lookup_analysis_by_component(id uuid) returns table (config_id uuid, severity text) language sql stable as $$
  select e.config_id, 'high'::text from evidences e where e.component_id = $1
$$;

insert into people values
  ('00000000-0000-0000-0000-000000000001', 'Alice', 'alice@example.com', 'a.png'),
  ('00000000-0000-0000-0000-000000000002', 'Bob', 'bob@example.com', null),
  ('00000000-0000-0000-0000-000000000003', 'Carol', null, null);
insert into teams values
  ('10000000-0000-0000-0000-000000000001', 'SRE', 'sre', 'UI', '00000000-0000-0000-0000-000000000001', null),
  ('10000000-0000-0000-0000-000000000002', 'Platform', null, 'KubernetesScraper', null, null);
insert into team_members values
  ('10000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000001'),
  ('10000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002');
insert into agents values
  ('20000000-0000-0000-0000-000000000001', 'local', 'the local agent', '00000000-0000-0000-0000-000000000001', '2024-01-01'),
  ('20000000-0000-0000-0000-000000000002', 'remote', null, null, '2024-02-01');
insert into canaries values
  ('30000000-0000-0000-0000-000000000001', 'http-checks', 'default', 'UI', '{"interval": 30}', null, '20000000-0000-0000-0000-000000000001'),
  ('30000000-0000-0000-0000-000000000002', 'dns-checks', 'kube-system', 'KubernetesCRD', null, null, null);
insert into checks (id, canary_id, agent_id, name, icon, status, type, labels, created_at) values
  ('40000000-0000-0000-0000-000000000001', '30000000-0000-0000-0000-000000000001', '20000000-0000-0000-0000-000000000001', 'google', 'http', 'healthy', 'http', '{"team": "sre", "env": "prod"}', '2024-01-01'),
  ('40000000-0000-0000-0000-000000000002', '30000000-0000-0000-0000-000000000001', null, 'github', 'http', 'unhealthy', 'http', '{"team": "dev"}', '2024-01-02'),
  ('40000000-0000-0000-0000-000000000003', '30000000-0000-0000-0000-000000000002', '20000000-0000-0000-0000-000000000002', 'resolver', 'dns', 'healthy', 'dns', '{}', '2024-01-03');
insert into components values
  ('50000000-0000-0000-0000-000000000001', 'frontend', 'web', 'Service', null),
  ('50000000-0000-0000-0000-000000000002', 'backend', 'api', 'Service', '50000000-0000-0000-0000-000000000001');
insert into check_component_relationships values
  ('40000000-0000-0000-0000-000000000001', '50000000-0000-0000-0000-000000000001'),
  ('40000000-0000-0000-0000-000000000001', '50000000-0000-0000-0000-000000000002');
insert into config_items values
  ('60000000-0000-0000-0000-000000000001', 'cluster-a', 'Kubernetes::Cluster', 'Cluster', '{"region": "eu"}', '{a,b}', '2024-01-01', null, '20000000-0000-0000-0000-000000000001'),
  ('60000000-0000-0000-0000-000000000002', 'node-1', 'Kubernetes::Node', 'Node', '{"region": "eu", "zone": "1"}', '{b}', '2024-01-02', null, null),
  ('60000000-0000-0000-0000-000000000003', 'old-node', 'Kubernetes::Node', 'Node', null, null, '2024-01-03', '2024-02-01', null);
insert into config_component_relationships values
  ('50000000-0000-0000-0000-000000000001', '60000000-0000-0000-0000-000000000002', 'sel', null),
  ('50000000-0000-0000-0000-000000000001', '60000000-0000-0000-0000-000000000001', 'sel', null);
insert into config_relationships values
  ('60000000-0000-0000-0000-000000000001', '60000000-0000-0000-0000-000000000002', 'contains');
insert into incidents values
  ('70000000-0000-0000-0000-000000000001', 'Checkout down', 'sev1', 'open', 'availability', '00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002', '00000000-0000-0000-0000-000000000001', '2024-03-01', null),
  ('70000000-0000-0000-0000-000000000002', 'Slow search', 'sev3', 'closed', 'performance', null, null, '00000000-0000-0000-0000-000000000002', '2024-03-02', null);
insert into hypotheses values
  ('80000000-0000-0000-0000-000000000001', '70000000-0000-0000-0000-000000000001', null, 'root', 'DB is down', 'possible', '00000000-0000-0000-0000-000000000001', '2024-03-01'),
  ('80000000-0000-0000-0000-000000000002', '70000000-0000-0000-0000-000000000002', null, 'root', 'Index missing', 'possible', null, '2024-03-02');
insert into evidences (id, hypothesis_id, component_id, config_id, description, created_by) values
  ('90000000-0000-0000-0000-000000000001', '80000000-0000-0000-0000-000000000001', '50000000-0000-0000-0000-000000000002', '60000000-0000-0000-0000-000000000001', 'logs', '00000000-0000-0000-0000-000000000001');
insert into responders (incident_id, team_id, person_id, created_by) values
  ('70000000-0000-0000-0000-000000000001', '10000000-0000-0000-0000-000000000001', null, '00000000-0000-0000-0000-000000000001'),
  ('70000000-0000-0000-0000-000000000001', null, '00000000-0000-0000-0000-000000000003', '00000000-0000-0000-0000-000000000001');
insert into check_statuses values
  ('40000000-0000-0000-0000-000000000001', '2024-01-01 00:00', true, 10, 'ok'),
  ('40000000-0000-0000-0000-000000000001', '2024-01-01 00:01', false, 20, 'fail'),
  ('40000000-0000-0000-0000-000000000001', '2024-01-01 00:02', true, 15, 'ok');
`;
