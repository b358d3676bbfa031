/** A user as the Spreadsheet objects hand one out (the owner, a protection's editors). */
export class UserImpl {
  constructor(private readonly email: string) {}
  getEmail(): string {
    return this.email;
  }
}
