/**
 * The user model the app supplies: a `User` shape and the `UserService` that finds users and
 * answers the reference's predicates (`email_verified`, `has_2fa`, `is_admin`, here camelCase:
 * `emailVerified`, `has2fa`, `isAdmin`) plus roles and permissions.
 */

/** A principal id: what a session stores and a bearer token's `sub` carries. */
export type PrincipalId = string | number;

/** The fields fw reads from a user (the app's user type may carry more). */
export interface User {
  /** The principal id (default rule: a positive integer; see `UserService.isPrincipalId`). */
  readonly id: PrincipalId;
  /** The e-mail address; may be unset. */
  readonly email?: string | null | undefined;
  /** Whether the address has been verified (the reference's `email_verified`). */
  readonly emailVerified: boolean;
}

/** An answer that may come synchronously or from a database. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What the app implements so that guards and tokens can work (the reference's predicates, in
 * camelCase; `@fw/kernel/docs/reference-map.md`).
 */
export interface UserService<U extends User = User> {
  /** The user with this id (as stored in the session or a token's `sub`), or undefined. */
  findById(id: string): MaybePromise<U | undefined | null>;
  /** True when the user has an e-mail address and it is verified (`email_verified`). */
  emailVerified(user: U): MaybePromise<boolean>;
  /** True when the user has completed two-factor authentication (`has_2fa`). */
  has2fa(user: U): MaybePromise<boolean>;
  /** True for administrators (`is_admin`). */
  isAdmin(user: U): MaybePromise<boolean>;
  /** The user's role names. */
  roles(user: U): MaybePromise<readonly string[]>;
  /** The user's permission names. */
  permissions(user: U): MaybePromise<readonly string[]>;
  /**
   * Whether a string is a valid principal id of this app (a token's `sub`). Default
   * `isPositiveIntegerId`: decimal digits, no sign or leading zero, at most 2^53 - 1.
   */
  isPrincipalId?(id: string): boolean;
}

const DIGITS = /^[1-9][0-9]{0,15}$/;

/** The default principal-id rule: a positive safe integer written in plain decimal. */
export function isPositiveIntegerId(id: string): boolean {
  return DIGITS.test(id) && Number.isSafeInteger(Number(id));
}

/** The predicate the reference's `email_verified` names, applied the safe way: no email, no. */
export async function emailVerified<U extends User>(users: UserService<U>, user: U): Promise<boolean> {
  if (typeof user.email !== 'string' || user.email === '') return false;
  return (await users.emailVerified(user)) === true;
}
