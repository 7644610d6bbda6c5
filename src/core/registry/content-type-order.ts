/**
 * Content types in the reference's order, and the reference's content types of models this
 * service does not have. Facts about a fresh Nautobot 2.4.36 database, read from the recorded
 * exchanges (differential/): data, not behaviour.
 *
 * The reference lists a to-many `content_types` field in content-type id order. Its ids are
 * given first to the models its data migrations look up (in the order below, observed in the
 * recorded status, location type and tag lists; where the recording does not tell, the order
 * here is a guess consistent with it), then to every other model by its app's place in
 * INSTALLED_APPS (ordered here by model name within an app).
 */

/** Models whose content types the reference's migrations create, in id order. */
const MIGRATION_ORDER = [
  'circuits.circuit', 'dcim.device', 'dcim.powerfeed', 'dcim.rack', 'ipam.ipaddress', 'ipam.prefix', 'ipam.vlan',
  'virtualization.virtualmachine', 'virtualization.vminterface', 'dcim.interface', 'dcim.location',
  'dcim.deviceredundancygroup', 'dcim.interfaceredundancygroup', 'extras.contactassociation', 'dcim.softwareimagefile',
  'dcim.softwareversion', 'dcim.controller', 'dcim.module', 'ipam.vrf', 'dcim.virtualdevicecontext',
  'circuits.circuittermination', 'dcim.rackgroup', 'ipam.vlangroup', 'ipam.namespace', 'virtualization.cluster',
];

/** The reference's INSTALLED_APPS order of the apps this service has models of. */
const APP_ORDER = ['auth', 'contenttypes', 'circuits', 'cloud', 'dcim', 'ipam', 'extras', 'tenancy', 'users', 'virtualization', 'wireless'];

const MIGRATION_RANK = new Map(MIGRATION_ORDER.map((id, i) => [id, i]));

function rankKey(modelId: string): [number, number, string] {
  const early = MIGRATION_RANK.get(modelId);
  if (early !== undefined) return [0, early, ''];
  const app = APP_ORDER.indexOf(modelId.slice(0, modelId.indexOf('.')));
  return [1, app < 0 ? APP_ORDER.length : app, modelId];
}

/** Orders `app_label.model` labels as the reference's content type ids order them. */
export function compareContentTypes(a: string, b: string): number {
  const [ga, ra, na] = rankKey(a);
  const [gb, rb, nb] = rankKey(b);
  if (ga !== gb) return ga - gb;
  if (ra !== rb) return ra - rb;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/**
 * The reference's content types whose models this service does not have (framework apps, and
 * 1.x models whose content types stay behind and display as a bare model name), as
 * `[value, display]`: offered where a field accepts any content type (a note's object type).
 */
export const FOREIGN_CONTENT_TYPES: readonly [string, string][] = [
  ['admin.logentry', 'admin | log entry'], ['ipam.aggregate', 'aggregate'], ['auth.permission', 'auth | permission'],
  ['constance.constance', 'constance | constance'], ['dcim.devicerole', 'devicerole'],
  ['django_celery_beat.clockedschedule', 'django_celery_beat | clocked'], ['django_celery_beat.crontabschedule', 'django_celery_beat | crontab'],
  ['django_celery_beat.intervalschedule', 'django_celery_beat | interval'], ['django_celery_beat.periodictask', 'django_celery_beat | periodic task'],
  ['django_celery_beat.periodictasks', 'django_celery_beat | periodic task track'], ['django_celery_beat.solarschedule', 'django_celery_beat | solar event'],
  ['django_celery_results.chordcounter', 'django_celery_results | chord counter'], ['django_celery_results.groupresult', 'django_celery_results | group result'],
  ['django_celery_results.taskresult', 'django_celery_results | task result'], ['extras.fileattachment', 'extras | file attachment'],
  ['extras.healthchecktestmodel', 'extras | health check test model'], ['extras.scheduledjobs', 'extras | scheduled jobs'],
  ['extras.taggeditem', 'extras | tagged item'], ['dcim.rackrole', 'rackrole'], ['ipam.role', 'role'], ['sessions.session', 'sessions | session'],
  ['silk.profile', 'silk | profile'], ['silk.request', 'silk | request'], ['silk.response', 'silk | response'], ['silk.sqlquery', 'silk | sql query'],
  ['dcim.site', 'site'], ['social_django.association', 'social_django | association'], ['social_django.code', 'social_django | code'],
  ['social_django.nonce', 'social_django | nonce'], ['social_django.partial', 'social_django | partial'],
  ['social_django.usersocialauth', 'social_django | user social auth'], ['taggit.tag', 'taggit | tag'],
  ['taggit.taggeditem', 'taggit | tagged item'], ['users.admingroup', 'users | Group'],
];
