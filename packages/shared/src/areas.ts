/** The two areas of the product (SPEC 1): each has its own sign-in, token and API root. */
export type AreaName = 'admin' | 'member';
