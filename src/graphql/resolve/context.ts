import { GraphQLError } from 'graphql';
import { NotAuthenticatedError, PermissionDeniedError, ValidationError } from '../../core/errors.js';
import { FALSE, TRUE } from '../../db/query/sql-helpers.js';
import { scopeClause } from '../../ops/read.js';
import { Batcher } from './batcher.js';
import { ReadGate } from './read-gate.js';
import { pyRepr } from '../../ops/references/python-repr.js';
import type { Clause } from '../../db/query/sql-helpers.js';
import type { ResolvedModel, Row } from '../../core/registry/types.js';
import type { Params } from '../../ops/filters/apply.js';
import type { RequestContext, Services } from '../../ops/services.js';

/** The largest result a query may return, in objects, and what it has returned so far. */
export type NodeBudget = { max: number; used: number };

/** Thrown when a query would return more objects than GRAPHQL_MAX_NODES allows; ends the whole query. */
export class NodeBudgetError extends GraphQLError {
  constructor(max: number) {
    super(`Query result exceeds the limit of ${max} objects (GRAPHQL_MAX_NODES); narrow it with filters or limit/offset.`, { extensions: { code: 'INV_ERR_GRAPHQL_MAX_NODES' } });
  }
}

/**
 * Everything one GraphQL request resolves with: the services, who asks (their permissions
 * narrow every level), the batcher, the node budget and the scope clauses already built.
 */
export class GqlContext {
  readonly batcher = new Batcher();
  /** The models of objects reached through generic relations (a union resolves its member type by it). */
  readonly generic = new WeakMap<Row, ResolvedModel>();
  /** Set when the node budget ran out: the response is that one error. */
  aborted: NodeBudgetError | null = null;
  private readonly scopes = new Map<string, Promise<Clause>>();

  private readonly gate: ReadGate;

  constructor(readonly services: Services, readonly rc: RequestContext, readonly budget: NodeBudget) {
    this.gate = new ReadGate(budget, () => this.aborted);
  }

  /**
   * The rows of `model` the caller may see that match `params` (the REST list's filters, object
   * permissions and app scopes: ops/read.ts). A model the caller holds no view grant on shows no
   * rows (the reference's restricted queryset), never an error; invalid filter values are a
   * GraphQL error in the reference's words (a Python dict of messages per filter).
   */
  async scope(model: ResolvedModel, params: Params = new Map()): Promise<Clause> {
    const key = params.size === 0 ? model.id : null;
    const cached = key ? this.scopes.get(key) : undefined;
    if (cached) return cached;
    const built = this.buildScope(model, params);
    if (key) this.scopes.set(key, built);
    return built;
  }

  private async buildScope(model: ResolvedModel, params: Params): Promise<Clause> {
    try {
      return await scopeClause(this.services, this.rc, model, params, 'view', this.services.dialect.db);
    } catch (err) {
      if (err instanceof PermissionDeniedError || err instanceof NotAuthenticatedError) return FALSE;
      if (err instanceof ValidationError) throw new GraphQLError(pyRepr(err.fields));
      throw err;
    }
  }

  /** Counts `n` more objects in the response; past the budget the query ends with one error. */
  spend(n: number): void {
    this.budget.used += n;
    if (this.budget.used > this.budget.max) throw this.abort();
  }

  /** Runs a list read once the query's read gate admits it, with the most rows it may bring (read-gate.ts). */
  withRoom<T>(want: number | null, read: (cap: number) => Promise<T>): Promise<T> {
    return this.gate.run(want, read);
  }

  abort(): NodeBudgetError {
    this.aborted ??= new NodeBudgetError(this.budget.max);
    return this.aborted;
  }
}

export { TRUE, FALSE };
