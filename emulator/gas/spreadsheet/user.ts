export class UserImpl {
  constructor(private readonly email: string) {}
  getEmail(): string {
    return this.email;
  }
}
