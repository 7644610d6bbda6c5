/**
 * What the reference's hand-written GraphQL types (each app's `graphql/types.py` and
 * `core/graphql/schema.py`, Nautobot 2.4) add to or take from the types it derives from its
 * models; everything else in the schema is derived from the registry.
 */

/** Models the reference registers as GraphQL types without the `graphql` feature. */
export const STATIC_TYPES: readonly string[] = ['contenttypes.contenttype', 'extras.tag', 'extras.scheduledjob', 'dcim.cablepath'];

/** Models whose GraphQL type has no filter set: their lists take only `limit` and `offset`. */
export const WITHOUT_FILTERS: ReadonlySet<string> = new Set(['contenttypes.contenttype', 'dcim.cablepath']);

/** Per model: fields left out of its type (`exclude`). */
export const EXCLUDED: Readonly<Record<string, readonly string[]>> = {
  'dcim.location': ['_name', 'images'],
  'dcim.device': ['_name'],
  'dcim.interface': ['_name'],
  'virtualization.vminterface': ['_name'],
  'dcim.cable': ['_termination_a_device', '_termination_b_device'],
};

/** Per model: read-time values (an app's computed loader by name) shown as text (`IPAddressType.address`). */
export const COMPUTED_TEXT: Readonly<Record<string, readonly string[]>> = {
  'ipam.ipaddress': ['address'],
  'ipam.prefix': ['prefix'],
};

/** Per model: content-type fields shown as `app_label.model` text instead of a ContentType (CableType). */
export const CONTENT_TYPE_AS_TEXT: Readonly<Record<string, readonly string[]>> = {
  'dcim.cable': ['termination_a_type', 'termination_b_type'],
};

/**
 * Generic relations the reference resolves, by name: the union type of their possible objects
 * (every model with a generic relation of that name) and, per model, the models of its
 * `<name-prefix>_<model>` fields, each the related object when it is of that model.
 */
export const GENERIC_UNIONS: Readonly<Record<string, { union: string; prefix: string; typed: Readonly<Record<string, readonly string[]>> }>> = {
  cable_peer: {
    union: 'CableTerminationTypes',
    prefix: 'cable_peer',
    typed: {
      'circuits.circuittermination': ['circuits.circuittermination', 'dcim.frontport', 'dcim.interface', 'dcim.rearport'],
      'dcim.interface': ['circuits.circuittermination', 'dcim.frontport', 'dcim.interface', 'dcim.rearport'],
      'dcim.consoleport': ['dcim.consoleserverport', 'dcim.frontport', 'dcim.rearport'],
      'dcim.consoleserverport': ['dcim.consoleport', 'dcim.frontport', 'dcim.rearport'],
      'dcim.frontport': ['circuits.circuittermination', 'dcim.consoleport', 'dcim.consoleserverport', 'dcim.frontport', 'dcim.interface', 'dcim.rearport'],
      'dcim.rearport': ['circuits.circuittermination', 'dcim.consoleport', 'dcim.consoleserverport', 'dcim.frontport', 'dcim.interface', 'dcim.rearport'],
      'dcim.powerfeed': ['dcim.powerport'],
      'dcim.poweroutlet': ['dcim.powerport'],
      'dcim.powerport': ['dcim.powerfeed', 'dcim.poweroutlet'],
    },
  },
  connected_endpoint: {
    union: 'PathEndpointTypes',
    prefix: 'connected',
    typed: {
      'circuits.circuittermination': ['circuits.circuittermination', 'dcim.interface'],
      'dcim.interface': ['circuits.circuittermination', 'dcim.interface'],
      'dcim.consoleport': ['dcim.consoleserverport'],
      'dcim.consoleserverport': ['dcim.consoleport'],
      'dcim.powerfeed': ['dcim.powerport'],
      'dcim.poweroutlet': ['dcim.powerport'],
      'dcim.powerport': ['dcim.powerfeed', 'dcim.poweroutlet'],
    },
  },
};

/**
 * Per model: an object field the reference adds, chosen from FKs of the row in order (the first
 * set wins): DeviceType's `primary_ip`, IPv6 before IPv4 as `Device.primary_ip` prefers them
 * while PREFER_IPV4 is off.
 */
export const FIRST_OF: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  'dcim.device': { primary_ip: ['primary_ip6', 'primary_ip4'] },
};
