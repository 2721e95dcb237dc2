// Barrel of this area: its owner lists the public exports here.
export {};
