/** A user as the Spreadsheet objects hand one out (the owner, a protection's editors). */
export class UserImpl {
  /** The class name, as every Apps Script object's toString() gives it. */
  toString(): string {
    return 'User';
  }
  constructor(private readonly email: string) {}
  getEmail(): string {
    return this.email;
  }
}
