export * from './codes';
export * from './outage';
export * from './rules';
export * from './limits';
export * from './contract/auth';
export * from './contract/app';
export * from './menu';
