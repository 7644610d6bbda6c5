/** Models a cable may terminate on (catalogue `cable_terminations` feature). */
export const CABLE_TERMINATION_TYPES: readonly string[] = [
  'circuits.circuittermination', 'dcim.consoleport', 'dcim.consoleserverport', 'dcim.frontport',
  'dcim.interface', 'dcim.powerfeed', 'dcim.poweroutlet', 'dcim.powerport', 'dcim.rearport',
];

/** List-like endpoints of the cable paths, named in the DCIM API root (dcim/routes.ts serves them). */
export const CONNECTION_ROOT_PATHS: readonly string[] = ['connected-device', 'console-connections', 'interface-connections', 'power-connections'];

/** Pass-through ports: a path runs through them, never starts or ends on them. */
export const PASS_THROUGH_TYPES: ReadonlySet<string> = new Set(['dcim.frontport', 'dcim.rearport']);

/** Terminations that own a cable path (and the connected_endpoint fields). */
export const PATH_ENDPOINT_TYPES: readonly string[] = CABLE_TERMINATION_TYPES.filter((t) => !PASS_THROUGH_TYPES.has(t));

const PORTS = ['dcim.frontport', 'dcim.rearport'];

/** Which termination types may share a cable (catalogue cable validation). */
const COMPATIBLE: Readonly<Record<string, readonly string[]>> = {
  'circuits.circuittermination': ['dcim.interface', ...PORTS, 'circuits.circuittermination'],
  'dcim.consoleport': ['dcim.consoleserverport', ...PORTS],
  'dcim.consoleserverport': ['dcim.consoleport', ...PORTS],
  'dcim.interface': ['dcim.interface', 'circuits.circuittermination', ...PORTS],
  'dcim.frontport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', ...PORTS, 'circuits.circuittermination'],
  'dcim.rearport': ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.interface', ...PORTS, 'circuits.circuittermination'],
  'dcim.powerfeed': ['dcim.powerport'],
  'dcim.poweroutlet': ['dcim.powerport'],
  'dcim.powerport': ['dcim.poweroutlet', 'dcim.powerfeed'],
};

/** True when a cable may join a termination of type `a` to one of type `b`. */
export function isCompatible(a: string, b: string): boolean {
  return COMPATIBLE[a]?.includes(b) ?? false;
}

const UNCABLED_INTERFACE_TYPES = new Set(['virtual', 'bridge', 'lag', 'ieee802.15.1', 'other-wireless']);

/** Interface types that take no cable: virtual ones and wireless ones. */
export function isUncabledInterfaceType(type: unknown): boolean {
  const value = String(type ?? '');
  return UNCABLED_INTERFACE_TYPES.has(value) || value.startsWith('ieee802.11');
}

/** One object on a cable path. */
export type PathNode = { type: string; id: string };

/** Both terminations of a cable row. */
export function endsOf(cable: Record<string, unknown>): [PathNode, PathNode] {
  return [
    { type: String(cable.termination_a_type), id: String(cable.termination_a_id) },
    { type: String(cable.termination_b_type), id: String(cable.termination_b_id) },
  ];
}

/** A path node as stored in a cable path's `path` list: `app.model:uuid`. */
export function toNodeText(node: PathNode): string {
  return `${node.type}:${node.id}`;
}

export function fromNodeText(text: string): PathNode {
  const cut = text.lastIndexOf(':');
  return { type: text.slice(0, cut), id: text.slice(cut + 1) };
}
