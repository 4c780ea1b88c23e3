export * from './agent';
export * from './errors';
export * from './messages';
export * from './parse';
export * from './request-id';
export * from './settings';
export * from './usage';
export * from './workflow';
