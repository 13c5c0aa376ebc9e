/** `member` documents: the board, staff and Shariah panel shown on /about. */
import { image, paras, type DocSpec } from "./helpers.js";

interface Person {
  uid: string;
  name: string;
  role: string;
  team: "board" | "staff" | "shariah_panel";
  photo: string;
  initials: string;
  bio: string[];
  order: number;
}

const PEOPLE: Person[] = [
  {
    uid: "aisha-rahman",
    name: "Aisha Rahman",
    role: "Chair",
    team: "board",
    photo: "member-ar.jpg",
    initials: "AR",
    order: 1,
    bio: [
      "Aisha is a chartered accountant who spent fifteen years auditing not-for-profits before joining the board in 2021.",
      "She chairs the finance and risk committee and leads our annual independent audit.",
    ],
  },
  {
    uid: "yusuf-hassan",
    name: "Yusuf Hassan",
    role: "Deputy Chair",
    team: "board",
    photo: "member-yh.jpg",
    initials: "YH",
    order: 2,
    bio: [
      "Yusuf is a social worker from Western Sydney with twenty years in housing and homelessness services. He joined the board to keep casework at the centre of every decision.",
    ],
  },
  {
    uid: "fatima-khalid",
    name: "Fatima Khalid",
    role: "Director",
    team: "board",
    photo: "member-fk.jpg",
    initials: "FK",
    order: 3,
    bio: [
      "Fatima is a lawyer specialising in charity governance. She advises the board on compliance with the ACNC governance standards and on privacy.",
    ],
  },
  {
    uid: "mariam-siddiqui",
    name: "Mariam Siddiqui",
    role: "Chief Executive Officer",
    team: "staff",
    photo: "member-ms.jpg",
    initials: "MS",
    order: 1,
    bio: [
      "Mariam leads the team that receives, assesses and pays zakat applications across Australia.",
      "Before NZF she ran a community legal centre in Melbourne's north.",
    ],
  },
  {
    uid: "ibrahim-ali",
    name: "Ibrahim Ali",
    role: "Casework Manager",
    team: "staff",
    photo: "member-ia.jpg",
    initials: "IA",
    order: 2,
    bio: [
      "Ibrahim manages our caseworkers and makes sure every application receives a decision within ten working days.",
    ],
  },
  {
    uid: "noor-bakr",
    name: "Noor Bakr",
    role: "Donor Care Lead",
    team: "staff",
    photo: "member-nb.jpg",
    initials: "NB",
    order: 3,
    bio: ["Noor answers donors' questions about calculating and paying zakat, receipts and regular giving."],
  },
  {
    uid: "hamza-qureshi",
    name: "Sheikh Hamza Qureshi",
    role: "Shariah Advisor",
    team: "shariah_panel",
    photo: "member-hq.jpg",
    initials: "HQ",
    order: 1,
    bio: [
      "Sheikh Hamza studied Islamic jurisprudence in Damascus and Cairo and has served as an imam in Brisbane for twelve years. He reviews our eligibility policy every year.",
    ],
  },
  {
    uid: "zainab-osman",
    name: "Dr Zainab Osman",
    role: "Shariah Advisor",
    team: "shariah_panel",
    photo: "member-zo.jpg",
    initials: "ZO",
    order: 2,
    bio: [
      "Dr Zainab lectures in Islamic finance. She advises on zakat on superannuation, shares and cryptocurrency, and wrote our calculator's guidance notes.",
    ],
  },
];

export function memberDocuments(): DocSpec[] {
  return PEOPLE.map((person, index) => ({
    type: "member",
    uid: person.uid,
    published: `2026-02-${String(2 + index).padStart(2, "0")}`,
    slugFrom: person.name,
    data: {
      name: person.name,
      role: person.role,
      team: person.team,
      photo: image(person.photo, `Portrait tile with the initials ${person.initials}`),
      bio: paras(...person.bio),
      order: person.order,
    },
  }));
}
