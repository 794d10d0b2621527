import { NodeFS } from '@electric-sql/pglite/nodefs';

export declare const durableStartParams: string[];
export declare class DurableNodeFS extends NodeFS {
  syncs: number;
}
