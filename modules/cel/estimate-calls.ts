// kube's estimates of function calls (its library estimator, then cel-go's): the cost and result size of a call
// from the sizes of its target and arguments.
import { costFactors, nominal } from './cost.js';
import {
  add,
  elementType,
  est,
  factor,
  mul,
  one,
  schemaSize,
  sizeOfInfo,
  unbounded,
  zero,
  type CostEstimate,
  type Info,
  type Node,
} from './estimate-sizes.js';

/** kube's call estimates (then cel-go's): cost and result size, given the target and argument estimates. */
export function callEstimate(
  fn: string,
  target: { node: Node; info: Info } | undefined,
  args: { node: Node; info: Info }[],
): { cost: CostEstimate; size?: CostEstimate } {
  const size = (x: { node: Node; info: Info }) => sizeOfInfo(x.info, x.node);
  if (nominal.has(fn)) return { cost: one };
  const t = target && size(target);
  const a0 = args[0] && size(args[0]);
  const str = (s: CostEstimate) => factor(s, costFactors.stringTraversal);
  switch (fn) {
    case 'check':
      return { cost: est(costFactors.authorizationCheck) };
    case 'isSorted':
    case 'sum':
    case 'max':
    case 'min':
    case 'indexOf':
    case 'lastIndexOf': {
      if (!target || !t) break;
      if (!target.node.checkedType?.name.startsWith('list')) return { cost: str(t) };
      let el = one;
      const et = elementType(target.node);
      if (et === 'string' || et === 'bytes') {
        const items = target.info.schema?.items;
        const elSize = (items && schemaSize(items)) ?? est(0, unbounded);
        el = add(el, str(elSize));
      }
      return { cost: mul(t, el) };
    }
    case 'url':
      return { cost: str(a0 ?? zero) };
    case 'sets.contains':
    case 'sets.intersects':
    case 'sets.equivalent': {
      // every pair of elements compared (equivalent: both ways), on top of the call
      const b = args[1] && size(args[1]);
      if (!a0 || !b) break;
      return { cost: add(one, factor(mul(a0, b), fn === 'sets.equivalent' ? 2 : 1)) };
    }
    case 'lowerAscii':
    case 'upperAscii':
    case 'substring':
    case 'trim':
      return t ? { cost: str(t), size: t } : { cost: one };
    case 'replace':
      if (t) return { cost: factor(t, 2 * costFactors.stringTraversal), size: est(0, unbounded) };
      break;
    case 'split':
      if (t) return { cost: factor(t, 2 * costFactors.stringTraversal), size: est(0, t.max) };
      break;
    case 'join':
      if (t) {
        const et = target!.info.schema?.items;
        let sz = mul(t, (et && schemaSize(et)) ?? est(0, unbounded));
        if (a0) sz = add(sz, mul(a0, est(Math.max(0, t.min - 1), Math.max(0, t.max - 1))));
        return { cost: str(sz), size: sz };
      }
      break;
    case 'find':
    case 'findAll':
    case 'matches':
      if (t && a0) {
        const strCost = str(add(t, one));
        return { cost: mul(strCost, factor(a0, costFactors.regexStringLength)), size: est(0, t.max) };
      }
      break;
    case 'cidr':
    case 'isIP':
    case 'isCIDR':
    case 'quantity':
    case 'isQuantity':
      return { cost: str(a0 ?? one) };
    case 'string':
    case 'bytes': {
      // only converting between strings and bytes walks the value; other conversions cost 1
      const from = args[0]?.node.checkedType?.name;
      return { cost: from === (fn === 'string' ? 'bytes' : 'string') ? str(a0 ?? one) : one };
    }
    case 'ip':
      return target ? { cost: one } : { cost: str(a0 ?? one) };
    case 'ip.isCanonical':
      return { cost: factor(a0 ?? one, 2 * costFactors.stringTraversal) };
    case 'containsIP':
    case 'containsCIDR': {
      const ipBytes = est(4, 16);
      let cost = str(add(ipBytes, ipBytes));
      if (fn === 'containsCIDR') cost = add(add(cost, str(ipBytes)), one);
      if (args[0]?.node.checkedType?.name === 'string') cost = add(cost, str(a0));
      return { cost };
    }
    case 'startsWith':
    case 'endsWith':
      // the estimate (not the run) of cel-go kube v1.32 ships scans the prefix or suffix only
      if (a0) return { cost: str(a0) };
      break;
    case 'contains':
      if (t && a0 && target!.node.checkedType?.name === 'string') return { cost: mul(str(t), str(a0)) };
      break;
  }
  return { cost: one };
}
