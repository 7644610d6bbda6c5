import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getNamedType, isEnumType, isListType, isNonNullType, isObjectType, isUnionType } from 'graphql';
import { create, makeApp } from '../helpers/app.js';
import { currentSchema } from '../../src/graphql/schema/schema-cache.js';
import type { GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import type { TestApp } from '../helpers/app.js';

let t: TestApp;
let schema: GraphQLSchema;

before(async () => {
  t = await makeApp();
  schema = await currentSchema(t.app.services);
});
after(() => t.close());

function field(type: string, name: string): GraphQLField<unknown, unknown> {
  const object = schema.getType(type) as GraphQLObjectType;
  assert.ok(isObjectType(object), `${type} is an object type`);
  const found = object.getFields()[name];
  assert.ok(found, `${type}.${name} exists`);
  return found;
}

const argType = (type: string, name: string, arg: string) => String(field(type, name).args.find((a) => a.name === arg)?.type);

describe('GraphQL schema derived from the registry', () => {
  it('should name the query fields from the verbose names, as the reference', () => {
    const query = schema.getQueryType()!.getFields();
    for (const name of ['device', 'devices', 'ip_address', 'ip_addresses', 'location', 'locations', 'interfaces', 'vrf_device_assignments', 'ip_address_assignments', 'tags', 'content_types', 'scheduled_jobs', 'cable_paths', 'graphql_queries']) assert.ok(query[name], name);
    for (const name of ['users', 'custom_fields', 'console_port_templates', 'relationships', 'object_permissions']) assert.equal(query[name], undefined, name);
    assert.ok(isListType(query.virtual_chassis.type), 'a model whose singular and plural names match keeps the list');
    assert.equal(String(query.device.type), 'DeviceType');
    assert.deepEqual(query.device.args.map((a) => `${a.name}: ${String(a.type)}`), ['id: ID']);
    assert.equal(String(query.ip_address_assignments.type), '[IPAddressToInterfaceType]');
  });

  it('should offer limit, offset and every REST filter with its lookups as list arguments', () => {
    const args = field('Query', 'devices').args.map((a) => a.name);
    for (const name of ['limit', 'offset', 'name', 'name__ic', 'name__nisw', 'location', 'role', 'status', 'tag', 'q', 'has_interfaces', 'platform__n']) assert.ok(args.includes(name), name);
    assert.deepEqual(args.slice(0, 2), ['limit', 'offset']);
    assert.equal(argType('Query', 'devices', 'name'), '[String]');
    assert.equal(argType('Query', 'devices', 'q'), 'String');
    assert.equal(argType('Query', 'interfaces', 'mtu__gte'), '[Int]');
    assert.equal(argType('Query', 'providers', 'asn'), '[BigInteger]');
    assert.equal(argType('Query', 'interfaces', 'enabled'), 'Boolean');
    assert.equal(argType('Query', 'devices', 'rack__isnull'), 'Boolean');
    assert.ok(argType('Query', 'interfaces', '_type'), '`type` is offered as `_type`, as the reference does');
    assert.equal(field('Query', 'interfaces').args.find((a) => a.name === 'type'), undefined);
  });

  it('should type model fields as graphene-django does', () => {
    assert.equal(String(field('DeviceType', 'id').type), 'UUID!');
    assert.equal(String(field('DeviceType', 'name').type), 'String');
    assert.equal(String(field('DeviceType', 'location').type), 'LocationType!');
    assert.equal(String(field('DeviceType', 'tenant').type), 'TenantType');
    assert.equal(String(field('DeviceType', 'created').type), 'DateTime');
    assert.equal(String(field('DeviceType', 'config_context').type), 'GenericScalar');
    assert.equal(String(field('DeviceType', '_custom_field_data').type), 'GenericScalar');
    assert.equal(String(field('InterfaceType', 'mtu').type), 'Int');
    assert.equal(String(field('InterfaceType', 'mac_address').type), 'String');
    assert.equal(String(field('IPAddressType', 'address').type), 'String');
    assert.equal(String(field('CableType', 'termination_a_type').type), 'String');
    assert.equal(String(field('DeviceType', 'url').type), 'String');
  });

  it('should make choice fields enums named <App><Model><Field>Choices', () => {
    const mode = getNamedType(field('InterfaceType', 'mode').type);
    assert.ok(isEnumType(mode));
    assert.equal(mode.name, 'DcimInterfaceModeChoices');
    assert.deepEqual(mode.getValues().map((v) => v.name), ['ACCESS', 'TAGGED', 'TAGGED_ALL']);
    const type = field('InterfaceType', 'type').type;
    assert.ok(isNonNullType(type) && isEnumType(type.ofType) && type.ofType.getValue('A_1000BASE_T'));
  });

  it('should list reverse relations and many-to-many fields by the reference\'s names, filterable', () => {
    for (const [type, name, of] of [
      ['DeviceType', 'interfaces', 'InterfaceType'], ['LocationType', 'devices', 'DeviceType'], ['LocationType', 'children', 'LocationType'],
      ['InterfaceType', 'member_interfaces', 'InterfaceType'], ['InterfaceType', 'ip_addresses', 'IPAddressType'], ['IPAddressType', 'interfaces', 'InterfaceType'],
      ['VLANType', 'interfaces_as_tagged', 'InterfaceType'], ['IPAddressType', 'primary_ip4_for', 'DeviceType'], ['StatusType', 'devices', 'DeviceType'],
      ['VirtualMachineType', 'interfaces', 'VMInterfaceType'],
    ]) {
      const list = field(type, name);
      assert.equal(String(list.type), `[${of}]`, `${type}.${name}`);
      assert.ok(list.args.some((a) => a.name === 'name' || a.name === 'address'), `${type}.${name} takes filters`);
    }
    assert.deepEqual(field('DeviceType', 'tags').args, []);
    assert.equal(String(field('DeviceType', 'parent_bay').type), 'DeviceBayType');
    assert.equal((schema.getType('CableType') as GraphQLObjectType).getFields().interfaces, undefined, 'the reference keeps no cable -> termination list');
  });

  it('should resolve cable terminations and path endpoints as unions with typed fields', () => {
    const peer = field('InterfaceType', 'cable_peer').type;
    assert.ok(isUnionType(peer));
    assert.equal(peer.name, 'CableTerminationTypes');
    assert.deepEqual(peer.getTypes().map((type) => type.name).sort(), ['CircuitTerminationType', 'ConsolePortType', 'ConsoleServerPortType', 'FrontPortType', 'InterfaceType', 'PowerFeedType', 'PowerOutletType', 'PowerPortType', 'RearPortType']);
    assert.equal(String(field('InterfaceType', 'connected_endpoint').type), 'PathEndpointTypes');
    for (const name of ['cable_peer_circuit_termination', 'cable_peer_front_port', 'cable_peer_interface', 'cable_peer_rear_port', 'connected_circuit_termination', 'connected_interface']) assert.ok(field('InterfaceType', name), name);
    assert.equal((schema.getType('InterfaceType') as GraphQLObjectType).getFields().cable_peer_console_port, undefined);
  });

  it('should resolve a cable peer to its object', async () => {
    const type = await create(t, '/api/dcim/location-types/', { name: 'Site', content_types: ['dcim.device'] });
    const location = await create(t, '/api/dcim/locations/', { name: 'ams', location_type: type.id, status: 'Active' });
    const maker = await create(t, '/api/dcim/manufacturers/', { name: 'Acme' });
    const model = await create(t, '/api/dcim/device-types/', { model: 'X1', manufacturer: maker.id });
    const role = await create(t, '/api/extras/roles/', { name: 'leaf', content_types: ['dcim.device'] });
    const [a, b] = await create(t, '/api/dcim/devices/', ['a', 'b'].map((name) => ({ name, device_type: model.id, role: role.id, location: location.id, status: 'Active' })));
    const [ia, ib] = await create(t, '/api/dcim/interfaces/', [a, b].map((d) => ({ device: d.id, name: 'eth0', type: '1000base-t', status: 'Active' })));
    await create(t, '/api/dcim/cables/', { termination_a_type: 'dcim.interface', termination_a_id: ia.id, termination_b_type: 'dcim.interface', termination_b_id: ib.id, status: 'Connected' });
    const res = await t.call('POST', '/api/graphql/', { query: `{ interface(id: "${ia.id}") { cable_peer { __typename ... on InterfaceType { device { name } } } cable_peer_interface { name } cable_peer_front_port { name } cable { termination_a_type termination_b_type } } }` });
    assert.deepEqual(res.body, { data: { interface: { cable_peer: { __typename: 'InterfaceType', device: { name: 'b' } }, cable_peer_interface: { name: 'eth0' }, cable_peer_front_port: null, cable: { termination_a_type: 'dcim.interface', termination_b_type: 'dcim.interface' } } } });
  });
});
